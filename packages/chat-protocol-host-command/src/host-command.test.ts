/**
 * The `chat-protocol-host` command as a user runs it: the real built bin in a
 * child process, its routes over loopback, on PGlite in a data directory and on
 * a real Postgres server shared by two processes; stopped by a signal. Every
 * process and the cluster are stopped in teardown, also when a test fails.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { readChatStream } from '@papercusp/chat-protocol-sse';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../test-support/postgres-cluster.mjs';
import { HOST_COMMAND_USAGE } from './host-command-options.js';
import { runHostCommand, spawnHostCommand, stopAllHostCommands, TOKENS, TOKENS_VARIABLE } from './host-command.testing.js';
import { auth, call, cardOf, follow, startTurn, type Host } from '../../../test-support/host-requests.js';

const directories: string[] = [];
const temporaryDirectory = (): string => {
  const directory = mkdtempSync(join(tmpdir(), 'chat-protocol-host-'));
  directories.push(directory);
  return directory;
};
afterEach(() => stopAllHostCommands());
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

const hostAt = (url: string): Host => ({ base: url, effects: [] });

// Runs the scripted turn to its end on `streamHost`, answering its card on `answerHost`.
async function completeTurn(startHost: Host, streamHost: Host, answerHost: Host, conversationId: string) {
  const { clientTurnId, turnId } = await startTurn(startHost, conversationId, 'Refund order 1042', TOKENS.ana);
  const first = await follow(streamHost, conversationId, turnId, (envelope) => envelope.event.type === 'card', TOKENS.ana);
  const correlationId = cardOf(first.envelopes);
  const answer = await call(answerHost, 'POST', `/v1/conversations/${conversationId}/cards/${correlationId}`, TOKENS.ana, {
    action: 'submit',
    correlationId,
    value: { confirmed: true },
  });
  expect(answer).toEqual({ status: 200, body: { correlationId, status: 'submitted' } });
  const rest = await follow(streamHost, conversationId, turnId, () => false, TOKENS.ana);
  return { clientTurnId, turnId, state: rest.state };
}

describe('the chat-protocol-host command: options (issue 17, "The host")', () => {
  it('--help prints the usage and exits 0', async () => {
    expect(await runHostCommand(['--help'])).toEqual({ code: 0, stdout: HOST_COMMAND_USAGE, stderr: '' });
  });

  it('a bad flag is one clear line on stderr and exit code 2, with nothing started', async () => {
    const cases: [readonly string[], Record<string, string>, string][] = [
      [['--bogus'], {}, 'unknown option "--bogus"'],
      [['--port', 'abc'], {}, '--port: expected a port from 0 to 65535, got "abc"'],
      [['--port'], {}, '--port needs a value'],
      [
        ['--data-dir', '/tmp/x'],
        { DATABASE_URL: 'postgres://127.0.0.1:1/x' },
        '--data-dir and DATABASE_URL both name a database: give one',
      ],
      [
        [],
        { CHAT_PROTOCOL_HOST_TOKENS: 'short=ana@acme' },
        'CHAT_PROTOCOL_HOST_TOKENS: the token of entry 1 is shorter than 16 characters',
      ],
    ];
    for (const [args, env, message] of cases) {
      expect(await runHostCommand(args, env)).toEqual({ code: 2, stdout: '', stderr: `chat-protocol-host: ${message} (see --help)\n` });
    }
  });

  it('a database it cannot open is exit code 1 with one line', async () => {
    const result = await runHostCommand(['--port', '0'], { DATABASE_URL: 'postgres://postgres@localhost:1/none' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^chat-protocol-host: could not start: .+\n$/);
    expect(result.stdout).toBe('');
  });
});

describe('the chat-protocol-host command on PGlite in a data directory (issue 17, "The host")', () => {
  it('serves the routes on a free port, keeps each conversation to the caller who created it, stops on SIGTERM with exit 0, and keeps the data', async () => {
    const dataDirectory = temporaryDirectory();
    const args = ['--port', '0', '--data-dir', dataDirectory, '--drain-ms', '200'];
    const first = await spawnHostCommand(args, { CHAT_PROTOCOL_HOST_TOKENS: TOKENS_VARIABLE, DATABASE_URL: undefined });
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.stdout()).toBe(`chat-protocol-host listening on ${first.url} (data: PGlite in ${dataDirectory})\n`);
    const host = hostAt(first.url);
    const { clientTurnId, state } = await completeTurn(host, host, host, 'c_ana_1');
    expect(state?.turns[0]?.status).toBe('completed');
    expect(state?.turns[0]?.text.endsWith('Ticket closed.')).toBe(true);

    // Another tenant: the conversation answers like one that does not exist, and cannot be taken over.
    const statusPath = `/v1/conversations/c_ana_1/turns/by-client-id/${clientTurnId}`;
    const missing = await call(host, 'GET', `/v1/conversations/c_nobody/turns/by-client-id/${clientTurnId}`, TOKENS.ana);
    expect(missing).toEqual({ status: 404, body: { code: 'not-found', message: 'no such conversation, turn or card' } });
    expect(await call(host, 'GET', statusPath, TOKENS.bob)).toEqual(missing);
    const bobTurn = await call(
      host,
      'POST',
      '/v1/conversations/c_ana_1/turns',
      TOKENS.bob,
      { clientTurnId, text: 'hi' },
      { 'Idempotency-Key': clientTurnId },
    );
    expect(bobTurn).toEqual(missing);
    expect((await call(host, 'GET', statusPath, null)).status).toBe(401);
    expect((await call(host, 'GET', statusPath, 'token-nobody-0123456789')).status).toBe(401);

    // A turn waiting on its card with a stream open: the stop drains (§11.2), so past --drain-ms the turn is
    // interrupted, its card closed with its tail, and the stream ends at that tail instead of waiting for the card.
    const waiting = await startTurn(host, 'c_ana_1', 'Refund order 1042', TOKENS.ana);
    const open = (async () => {
      const url = `${first.url}/v1/conversations/c_ana_1/turns/${waiting.turnId}/events`;
      const seen: string[] = [];
      for await (const item of readChatStream({ url, headers: auth(TOKENS.ana), retry: { attempts: 0 } })) {
        if (item.type === 'envelope') seen.push(item.envelope.event.type);
        if (item.type === 'ended') return { seen, reason: item.reason };
      }
      return { seen, reason: 'none' };
    })();
    await follow(host, 'c_ana_1', waiting.turnId, (envelope) => envelope.event.type === 'card', TOKENS.ana);
    const stopped = await first.stop('SIGTERM');
    expect(stopped.code).toBe(0);
    const ended = await open;
    expect(ended.seen.slice(ended.seen.indexOf('card'))).toEqual(['card', 'card_closed', 'done']);
    expect(ended.reason).toBe('terminal');
    expect(stopped.stdout.endsWith('chat-protocol-host stopped (SIGTERM)\n')).toBe(true);

    // The same data directory again: the turn and its owner are still there.
    const second = await spawnHostCommand(args, { CHAT_PROTOCOL_HOST_TOKENS: TOKENS_VARIABLE, DATABASE_URL: undefined });
    const status = await call(hostAt(second.url), 'GET', statusPath, TOKENS.ana);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: 'completed' });
    expect(await call(hostAt(second.url), 'GET', statusPath, TOKENS.bob)).toEqual(missing);
    const waitingStatus = await call(
      hostAt(second.url),
      'GET',
      `/v1/conversations/c_ana_1/turns/by-client-id/${waiting.clientTurnId}`,
      TOKENS.ana,
    );
    expect(waitingStatus.body).toMatchObject({ status: 'interrupted' });
    expect((await second.stop('SIGINT')).code).toBe(0);
  });

  it('without CHAT_PROTOCOL_HOST_TOKENS it makes up one random token, prints it, and only that token is let in', async () => {
    const running = await spawnHostCommand(['--port', '0', '--data-dir', temporaryDirectory()], {
      CHAT_PROTOCOL_HOST_TOKENS: undefined,
      DATABASE_URL: undefined,
    });
    const token = /Bearer ([A-Za-z0-9_-]{32})" \(caller local@local\)/.exec(running.stdout())?.[1];
    expect(token).toBeDefined();
    const host = hostAt(running.url);
    const { clientTurnId } = await startTurn(host, 'c_local', 'fail please', token);
    expect((await call(host, 'GET', `/v1/conversations/c_local/turns/by-client-id/${clientTurnId}`, token ?? '')).status).toBe(200);
    expect((await call(host, 'GET', `/v1/conversations/c_local/turns/by-client-id/${clientTurnId}`, TOKENS.ana)).status).toBe(401);
    expect((await running.stop()).code).toBe(0);
  });
});

describe('chat-protocol-host --agent ./agent.mjs (issue 26, "The command and the docs")', () => {
  it("serves the module's agent: a factory given the command's agent options, whose turn streams to its end", async () => {
    const folder = temporaryDirectory();
    writeFileSync(
      join(folder, 'agent.mjs'),
      `export default ({ toolDelayMs }) => ({
        async *run(turn) {
          yield { type: 'delta', text: 'You said: ' + turn.text + ' (delay ' + toolDelayMs + ')' };
        },
      });`,
    );
    const running = await spawnHostCommand(
      ['--port', '0', '--data-dir', join(folder, 'data'), '--tool-delay-ms', '5', '--agent', join(folder, 'agent.mjs')],
      {
        CHAT_PROTOCOL_HOST_TOKENS: TOKENS_VARIABLE,
        DATABASE_URL: undefined,
      },
    );
    const host = hostAt(running.url);
    const { turnId } = await startTurn(host, 'c_ana_agent', 'hello', TOKENS.ana);
    const { state } = await follow(host, 'c_ana_agent', turnId, () => false, TOKENS.ana);
    expect(state?.turns[0]).toMatchObject({ status: 'completed', text: 'You said: hello (delay 5)' });
    expect((await running.stop('SIGTERM')).code).toBe(0);
  });

  it('a module that is no agent is one line naming it and exit code 2, with nothing opened', async () => {
    const folder = temporaryDirectory();
    writeFileSync(join(folder, 'not-an-agent.mjs'), `export default { name: 'agent' };`);
    const dataDirectory = join(folder, 'data');
    const result = await runHostCommand(['--port', '0', '--data-dir', dataDirectory, '--agent', join(folder, 'not-an-agent.mjs')]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `chat-protocol-host: --agent ${join(folder, 'not-an-agent.mjs')}: its default export is not a ChatAgent (an object with a run function)\n`,
    });
    expect(existsSync(dataDirectory)).toBe(false);
  });
});

describe('the command claims a conversation only for an accepted turn (issue 24, DESIGN §11 "The HTTP edge")', () => {
  // One data directory for both tests: the second start reopens it instead of initialising another.
  let dataDirectory: string;
  beforeAll(() => {
    dataDirectory = temporaryDirectory();
  });

  it('§11 a refused POST /turns (415, invalid-json, invalid-body, 413, no Idempotency-Key) claims nothing: the owner then starts its turn and the refuser gets 404', async () => {
    const running = await spawnHostCommand(['--port', '0', '--data-dir', dataDirectory], {
      CHAT_PROTOCOL_HOST_TOKENS: TOKENS_VARIABLE,
      DATABASE_URL: undefined,
    });
    const host = hostAt(running.url);
    const clientTurnId = createTurnId();
    const key = { 'Idempotency-Key': clientTurnId };
    const valid = JSON.stringify({ clientTurnId, text: 'fail please' });
    // Each refusal on its own new conversation, so each one alone is shown to claim nothing.
    const refusals: [string, string, Record<string, string>, number, string][] = [
      ['c_claim_415', valid, { ...key, 'content-type': 'text/plain' }, 415, 'unsupported-media-type'],
      ['c_claim_json', '{"clientTurnId":', { ...key, 'content-type': 'application/json' }, 400, 'invalid-json'],
      ['c_claim_body', JSON.stringify({ clientTurnId, text: '' }), { ...key, 'content-type': 'application/json' }, 400, 'invalid-body'],
      [
        'c_claim_413',
        JSON.stringify({ clientTurnId, text: 'x'.repeat(20_000) }),
        { ...key, 'content-type': 'application/json' },
        413,
        'body-too-large',
      ],
      ['c_claim_key', valid, { 'content-type': 'application/json' }, 400, 'missing-idempotency-key'],
    ];
    for (const [conversationId, body, headers, status, code] of refusals) {
      const refused = await fetch(`${running.url}/v1/conversations/${conversationId}/turns`, {
        method: 'POST',
        headers: { ...auth(TOKENS.bob), ...headers },
        body,
      });
      expect(refused.status, code).toBe(status);
      expect(await refused.json()).toMatchObject({ code });
    }
    const notFound = { status: 404, body: { code: 'not-found', message: 'no such conversation, turn or card' } };
    for (const [conversationId] of refusals) {
      const { turnId } = await startTurn(host, conversationId, 'fail please', TOKENS.ana);
      expect(turnId).toMatch(/^turn_[0-9a-f]{32}$/);
      expect(await call(host, 'GET', `/v1/conversations/${conversationId}/state`, TOKENS.bob)).toEqual(notFound);
    }
    expect((await running.stop()).code).toBe(0);
  });

  it("§11 the peer routes start a new conversation like POST /turns: a new AI SDK chat id and a new AG-UI thread id both stream their turn, and stay the starter's", async () => {
    const running = await spawnHostCommand(['--port', '0', '--data-dir', dataDirectory], {
      CHAT_PROTOCOL_HOST_TOKENS: TOKENS_VARIABLE,
      DATABASE_URL: undefined,
    });
    const host = hostAt(running.url);
    const chat = (id: string, extra: Record<string, unknown> = {}) => ({
      id,
      messages: [{ id: 'msg_1', role: 'user', parts: [{ type: 'text', text: 'fail please' }] }],
      trigger: 'submit-message',
      ...extra,
    });
    const run = (threadId: string, extra: Record<string, unknown> = {}) => ({
      threadId,
      runId: 'run_1',
      state: {},
      messages: [{ id: 'msg_1', role: 'user', content: 'fail please' }],
      tools: [],
      context: [],
      forwardedProps: {},
      ...extra,
    });
    // A peer request refused by its own reading claims nothing either.
    expect(await call(host, 'POST', '/v1/ai-sdk/chat', TOKENS.bob, chat('c_peer_chat', { trigger: 'regenerate-message' }))).toMatchObject({
      status: 400,
      body: { code: 'invalid-body' },
    });
    const resume = run('c_peer_thread', { resume: [{ interruptId: 'card_1', status: 'cancelled' }] });
    expect(await call(host, 'POST', '/v1/ag-ui', TOKENS.bob, resume)).toMatchObject({ status: 400, body: { code: 'invalid-body' } });

    const started = await call(host, 'POST', '/v1/ai-sdk/chat', TOKENS.ana, chat('c_peer_chat'));
    expect(started.status).toBe(200);
    expect(started.body).toEqual(expect.stringContaining('"errorText":"the scripted provider is down"'));
    const ran = await call(host, 'POST', '/v1/ag-ui', TOKENS.ana, run('c_peer_thread'));
    expect(ran.status).toBe(200);
    expect(ran.body).toEqual(expect.stringContaining('"type":"RUN_ERROR"'));

    const notFound = { status: 404, body: { code: 'not-found', message: 'no such conversation, turn or card' } };
    expect(await call(host, 'POST', '/v1/ai-sdk/chat', TOKENS.bob, chat('c_peer_chat'))).toEqual(notFound);
    expect(await call(host, 'POST', '/v1/ag-ui', TOKENS.bob, run('c_peer_thread'))).toEqual(notFound);
    expect(await call(host, 'GET', '/v1/conversations/c_peer_chat/state', TOKENS.bob)).toEqual(notFound);
    expect(await call(host, 'GET', '/v1/conversations/c_peer_thread/state', TOKENS.bob)).toEqual(notFound);
    expect((await call(host, 'GET', '/v1/conversations/c_peer_chat/state', TOKENS.ana)).status).toBe(200);
    expect((await running.stop()).code).toBe(0);
  });
});

describe('the chat-protocol-host command on a real Postgres server (issue 17: several processes on one DATABASE_URL)', () => {
  let cluster: PostgresCluster | undefined;
  afterAll(async () => {
    await stopAllHostCommands();
    await cluster?.destroy();
  }, 60_000);

  it('two processes serve the same conversations: a turn started on one streams from the other, whose card answer reaches the run; both stop cleanly with a stream open', async () => {
    cluster = await startPostgresCluster();
    const env = { CHAT_PROTOCOL_HOST_TOKENS: TOKENS_VARIABLE, DATABASE_URL: cluster.url };
    const [one, two] = await Promise.all([
      spawnHostCommand(['--port', '0', '--card-poll-ms', '100'], env),
      spawnHostCommand(['--port', '0', '--card-poll-ms', '100'], env),
    ]);
    expect(one.stdout()).toBe(`chat-protocol-host listening on ${one.url} (data: Postgres at 127.0.0.1:${cluster.port}/postgres)\n`);
    const { clientTurnId, state } = await completeTurn(hostAt(one.url), hostAt(two.url), hostAt(two.url), 'c_ana_shared');
    expect(state?.turns[0]?.status).toBe('completed');
    expect(state?.turns[0]?.text.endsWith('Ticket closed.')).toBe(true);
    // The grant is in the shared database: the other process keeps the conversation from another tenant too.
    const statusPath = `/v1/conversations/c_ana_shared/turns/by-client-id/${clientTurnId}`;
    expect((await call(hostAt(two.url), 'GET', statusPath, TOKENS.bob)).status).toBe(404);
    // A turn waiting on its card, streamed from the other process: both still stop at once.
    const waiting = await startTurn(hostAt(one.url), 'c_ana_shared', 'Refund order 1042', TOKENS.ana);
    await follow(hostAt(two.url), 'c_ana_shared', waiting.turnId, (envelope) => envelope.event.type === 'card', TOKENS.ana);
    const open = readChatStream({
      url: `${two.url}/v1/conversations/c_ana_shared/turns/${waiting.turnId}/events`,
      headers: auth(TOKENS.ana),
      retry: { attempts: 0 },
    })[Symbol.asyncIterator]();
    expect((await open.next()).value).toMatchObject({ type: 'connected' });
    expect((await two.stop('SIGTERM')).code).toBe(0);
    expect((await one.stop('SIGINT')).code).toBe(0);
    await open.return?.();
  });
});
