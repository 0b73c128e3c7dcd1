#!/usr/bin/env node
// `pnpm demo`: the protocol live. Builds the packages quietly, starts the real
// `chat-protocol-host` command on a free loopback port (PGlite in a temporary
// folder; with DATABASE_URL, two host processes on that Postgres), and runs a
// terminal client through the scripted agent's scenarios: streamed text, a
// block, a tool with an external effect, a connection cut mid-turn and
// resumed, a card answered over HTTP, a cancellation with a late result, a
// failed turn, another tenant kept out, and the final state checked against a
// clean replay. Exits 1 when any check fails; stops everything it started.
// `--no-build` skips the build (the tests run it after building).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const hostBin = join(root, 'packages/chat-protocol-host-command/bin/chat-protocol-host.js');
const databaseUrl = process.env['DATABASE_URL'] || null;
const TOOL_DELAY_MS = 2000;
const DEMO_TIMEOUT_MS = 180_000;

// Colour only for a person at a terminal.
const colour = process.stdout.isTTY === true && !process.env['NO_COLOR'];
const paint = (code) => (text) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
const bold = paint('1');
const dim = paint('2');
const green = paint('32');
const red = paint('31');
const cyan = paint('36');

// The agent's streamed text is written inline; any other line first ends it.
let inline = false;
const write = (text) => {
  process.stdout.write(text);
  inline = !text.endsWith('\n');
};
const line = (text = '') => write(`${inline ? '\n' : ''}${text}\n`);
const say = (text) => write(text);

let steps = 0;
const step = (title, explanation) => {
  steps += 1;
  line();
  line(bold(`${steps}. ${title}`));
  line(dim(`   ${explanation}`));
};

// A word the demo uses is explained once, where it first appears.
const explained = new Set();
const explain = (term, text) => {
  if (explained.has(term)) return;
  explained.add(term);
  line(dim(`     (${text})`));
};

let checks = 0;
let failures = 0;
const check = (ok, what) => {
  checks += 1;
  if (!ok) failures += 1;
  line(`   ${ok ? green('✓') : red('✗')} ${what}`);
  return ok;
};

// Everything started, stopped in reverse order on the way out, whatever happened.
const cleanups = [];
let stopping;
const stopEverything = () => {
  stopping ??= (async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  })();
  return stopping;
};
const finish = async (code) => {
  await stopEverything();
  process.exit(code);
};
process.once('SIGINT', () => void finish(130));
process.once('SIGTERM', () => void finish(143));
// 0. Build quietly: a line of progress, and the build's output only when it fails.
if (!process.argv.includes('--no-build')) await build();

// The demo's own time starts now: a cold build on a busy machine takes minutes and is not the demo.
setTimeout(() => {
  line(red(`✗ the demo did not finish in ${DEMO_TIMEOUT_MS / 1000} s`));
  void finish(1);
}, DEMO_TIMEOUT_MS).unref();

/** Builds the command and what it depends on through turbo, naming each package as it is built. */
async function build() {
  write(dim('Building the packages (the first build takes a few minutes; later ones are cached)…'));
  const turbo = join(root, 'node_modules/.bin/turbo');
  const child = spawn(turbo, ['run', 'build', '--filter=@papercusp/chat-protocol-host-command...', '--output-logs=full'], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let pending = '';
  const built = new Set();
  const read = (chunk) => {
    output += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const text of lines) {
      // turbo prefixes each line with `<package>:build:`; a package is built once its log says so or its cache is hit.
      const done = /^@papercusp\/chat-protocol-?([\w-]*):build: .*(Build success|cache hit)/.exec(text);
      const name = done?.[1] === '' ? 'facade' : done?.[1];
      if (name === undefined || built.has(name)) continue;
      built.add(name);
      write(dim(` ${name}`));
    }
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const code = await new Promise((resolve) => {
    child.once('error', (error) => ((output += String(error)), resolve(1)));
    child.once('close', resolve);
  });
  if (code !== 0) {
    line();
    process.stderr.write(`${output}\n`);
    process.stderr.write(red('The build failed (its output is above).\n'));
    process.exit(1);
  }
  write(dim(' done.\n'));
}

const { applyChatEvent, createChatState } = await import('@papercusp/chat-protocol-core');
const { createTurnTextSplitter } = await import('@papercusp/chat-protocol-blocks');
const { createTurnId } = await import('@papercusp/chat-protocol-recovery');
const { readChatStream } = await import('@papercusp/chat-protocol-sse');
const { createPostgresChatStore, pgDatabase, pgliteDatabase } = await import('@papercusp/chat-protocol-postgres');

const TOKENS = { ana: 'demo-token-ana-0123456789', bob: 'demo-token-bob-0123456789' };
const hostEnvironment = { ...process.env, CHAT_PROTOCOL_HOST_TOKENS: `${TOKENS.ana}=ana@acme,${TOKENS.bob}=bob@globex` };
const temporary = mkdtempSync(join(tmpdir(), 'chat-protocol-demo-'));
cleanups.push(async () => rmSync(temporary, { recursive: true, force: true }));
const dataDirectory = join(temporary, 'data');

/** Starts one `chat-protocol-host` process and resolves with its URL once it listens. */
function startHost(name) {
  const args = ['--port', '0', '--tool-delay-ms', String(TOOL_DELAY_MS), '--card-poll-ms', '200'];
  if (databaseUrl === null) args.push('--data-dir', dataDirectory);
  const child = spawn(process.execPath, [hostBin, ...args], { env: hostEnvironment, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise((resolve) => child.once('close', resolve));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  });
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url !== undefined) resolve({ name, url, stop: async () => (child.kill('SIGTERM'), await exited) });
    });
    void exited.then((code) => reject(new Error(`host ${name} exited ${code} before listening:\n${output}`)));
  });
}

/**
 * A relay between the client's event stream and a host, so the demo can cut
 * the connection the way a network does (the sockets just close), keep the
 * client away for a while (its reconnect waits at the relay), and send the
 * reconnect to another host process.
 */
async function startRelay(target) {
  let upstream = new URL(target);
  let held = null;
  const sockets = new Set();
  const connections = [];
  const pipe = (client) => {
    const server = connect(Number(upstream.port), upstream.hostname);
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => sockets.delete(socket));
    }
    // What went through: the cursor the client asked from, and the first frame the host sent back.
    const seen = { lastEventId: null, firstFrameId: null };
    connections.push(seen);
    let request = '';
    let response = '';
    client.on('data', (chunk) => {
      request += chunk;
      seen.lastEventId ??= /^last-event-id: *(\S+)\r$/im.exec(request)?.[1] ?? null;
    });
    server.on('data', (chunk) => {
      if (seen.firstFrameId !== null) return;
      response += chunk;
      seen.firstFrameId = /^id: ?(\S+)$/m.exec(response)?.[1] ?? null;
    });
    client.pipe(server).pipe(client);
    client.once('close', () => server.destroy());
    server.once('close', () => client.destroy());
  };
  const relay = createServer((client) => {
    client.on('error', () => undefined);
    if (held === null) pipe(client);
    else held.push(client);
  });
  await new Promise((resolve) => relay.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of [...sockets, ...(held ?? [])]) socket.destroy();
    await new Promise((resolve) => relay.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${relay.address().port}`,
    connections,
    /** Closes every connection; new ones wait until `restore`. */
    cut(next) {
      upstream = new URL(next);
      held = [];
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      const waiting = held ?? [];
      held = null;
      for (const client of waiting) pipe(client);
    },
  };
}

// A conversation of its own each run: on a real database, earlier runs' conversations are still there.
const conversationId = `c_demo_${randomBytes(6).toString('hex')}`;
let firstHost;
const headersOf = (token) => ({ authorization: `Bearer ${token}` });
async function request(base, method, path, token, body, extra = {}) {
  const response = await fetch(`${base}/v1/conversations${path}`, {
    method,
    headers: { ...headersOf(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: keep null
  }
  return { status: response.status, body: json };
}
// Polls the turn's status until the host has written event `seq` (at most 20 s); resolves with the last seq written.
async function waitForProgress(clientTurnId, seq) {
  const until = Date.now() + 20_000;
  for (;;) {
    const status = await request(firstHost.url, 'GET', `/${conversationId}/turns/by-client-id/${clientTurnId}`, TOKENS.ana);
    const lastSeq = status.body?.lastSeq ?? 0;
    if (lastSeq >= seq || status.body?.status !== 'running' || Date.now() > until) return lastSeq;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const postTurn = (base, clientTurnId, text) =>
  request(base, 'POST', `/${conversationId}/turns`, TOKENS.ana, { clientTurnId, text }, { 'Idempotency-Key': clientTurnId });

// The client's view of the conversation: every frame it received, folded as it arrived.
let clientState = createChatState(conversationId);
const turns = [];

/**
 * Reads a turn's event stream from `url` until it ends, printing what a person
 * would see. `onEnvelope` may act on a frame (cut the connection, answer a card,
 * cancel); it returns nothing. Returns what the reading saw.
 */
async function followTurn(url, turnId, onEnvelope = () => undefined, { reconnectTarget = '' } = {}) {
  const seen = {
    seqs: [],
    duplicates: 0,
    reconnects: [],
    ended: null,
    text: '',
    blocks: [],
    resumedFrom: [],
    reconnectedAt: null,
    caughtUp: [],
  };
  const splitter = createTurnTextSplitter();
  let printed = '';
  const show = (segments) => {
    for (const segment of segments) {
      if (segment.kind === 'text' && segment.text !== '') {
        // A line that picks up in the middle of a word starts with an ellipsis.
        const continuing = !inline && printed !== '' && !/\s$/.test(printed);
        say(`${inline ? '' : `   ${bold('Agent:')} ${continuing ? '…' : ''}`}${segment.text}`);
        printed += segment.text;
      }
      if (segment.kind === 'report') {
        seen.blocks.push(segment.block);
        const { title, plans } = segment.block;
        line(cyan(`   ┌ block: ${title ?? 'report'}`));
        for (const plan of plans ?? []) {
          line(cyan(`   │ ${plan.title} (${plan.status === 'wip' ? 'in progress' : plan.status})`));
          for (const item of plan.items ?? []) line(cyan(`   │   ${item.status === 'done' ? '✓' : '·'} ${item.text}`));
        }
        line(cyan('   └'));
        explain(
          'block',
          'a block is structured content inside the text, <report>…</report> here: an app draws it as a panel instead of showing the tags',
        );
      }
      if (segment.kind === 'ask') {
        line(cyan(`   ┌ question block: ${segment.block.question}`));
        for (const option of segment.block.options ?? []) line(cyan(`   │ · ${option.label}`));
        line(cyan('   └'));
      }
    }
  };
  for await (const item of readChatStream({
    url: `${url}/v1/conversations/${conversationId}/turns/${turnId}/events`,
    headers: headersOf(TOKENS.ana),
    retry: { baseDelayMs: 100, maxDelayMs: 300 },
  })) {
    if (item.type === 'reconnecting') {
      seen.reconnects.push(item.cursor?.seq ?? 0);
      line(dim(`   … the connection dropped after event ${item.cursor?.seq ?? 0}; the client reconnects by itself${reconnectTarget}`));
    }
    if (item.type === 'connected' && item.attempt > 0) {
      seen.resumedFrom.push(item.cursor?.seq ?? 0);
      seen.reconnectedAt = Date.now();
      line(dim(`   … reconnected, asking for everything after event ${item.cursor?.seq ?? 0} (the Last-Event-ID header)`));
    }
    if (item.type === 'refused') line(red(`   the host refused the stream: ${item.status} ${item.code}`));
    if (item.type === 'ended') seen.ended = item.reason;
    if (item.type !== 'envelope') continue;
    const { envelope } = item;
    // Written before the reconnect, yet received after it: replayed from the database.
    if (seen.reconnectedAt !== null && Date.parse(envelope.occurredAt) <= seen.reconnectedAt) seen.caughtUp.push(envelope.seq);
    const applied = applyChatEvent(clientState, envelope);
    if (!applied.ok) {
      line(red(`   the client refused event ${envelope.seq}: ${applied.code}`));
      continue;
    }
    if (applied.outcome === 'duplicate') seen.duplicates += 1;
    clientState = applied.state;
    seen.seqs.push(envelope.seq);
    const { event } = envelope;
    switch (event.type) {
      case 'user_input':
        line(`   ${bold('Ana:')} ${event.text}`);
        break;
      case 'reasoning':
        line(dim(`   (thinking: ${event.text})`));
        break;
      case 'provenance':
        line(dim(`   (answered by ${event.engine}, model ${event.model})`));
        break;
      case 'state':
        line(dim(`   (the app's saved state, version ${event.version}: ${JSON.stringify(event.snapshot)})`));
        explain(
          'state',
          'saved state: data the agent keeps for the app beside the text, such as a form filled in so far; each write has a higher version and replaces the last',
        );
        break;
      case 'navigate':
        line(`   ${cyan('→')} the agent asks the app to open ${event.href}`);
        break;
      case 'delta':
        seen.text += event.text;
        show(splitter.push(event.text));
        break;
      case 'tool_call':
        line(`   ${cyan('⚙')} tool ${event.name}(${JSON.stringify(event.input ?? {})}) started`);
        break;
      case 'tool_result':
        line(`   ${cyan('⚙')} tool ${event.name}: ${event.status}${event.summary ? ` (${event.summary})` : ''}`);
        break;
      case 'card':
        line(`   ${cyan('?')} card: "${event.card.prompt}" [${event.card.presentation.kind}]`);
        explain(
          'card',
          'a card is a question the agent asks the person, with its own controls (here a yes/no confirmation); the turn waits for the answer',
        );
        break;
      case 'card_closed':
        line(`   ${cyan('?')} card closed: ${event.resolution}`);
        break;
      case 'done':
        show(splitter.end());
        line(
          `   ${bold('turn ended:')} ${event.status}${event.usage?.totalTokens === undefined ? '' : ` (${event.usage.totalTokens} tokens used)`}`,
        );
        break;
      case 'error':
        show(splitter.end());
        line(
          `   ${bold('turn failed:')} ${event.message} (retry allowed: ${event.retryable ? 'yes' : 'no'}${event.retryAfterMs === undefined ? '' : `, after ${event.retryAfterMs / 1000} s`})`,
        );
        break;
    }
    await onEnvelope(envelope);
  }
  return seen;
}

async function main() {
  step(
    databaseUrl === null ? 'Start the chat host' : 'Start two chat host processes',
    databaseUrl === null
      ? 'The host is the server a chat app talks to. It keeps every event in a database: here PGlite, an embedded Postgres, in a temporary folder. Its agent is scripted: no language model is involved, so every run says the same.'
      : 'Both processes use the Postgres server in DATABASE_URL, so either one can serve any conversation. Their agent is scripted: no language model is involved, so every run says the same.',
  );
  const first = await startHost('A');
  firstHost = first;
  const second = databaseUrl === null ? first : await startHost('B');
  line(`   host A listening on ${first.url}`);
  if (second !== first) line(`   host B listening on ${second.url}`);

  // Turn 1: everything a turn can do, through a connection we cut halfway.
  step(
    'Ana asks for a refund',
    "A turn is one message and the agent's whole answer to it. The client makes up the turn's id before sending it, so sending it twice can never start two turns.",
  );
  const refund = { clientTurnId: createTurnId(), text: 'Please refund order 1042.' };
  const started = await postTurn(first.url, refund.clientTurnId, refund.text);
  check(started.status === 202, `POST /turns answered ${started.status}, the turn id ${started.body?.turnId}`);
  const turnId = started.body?.turnId;
  turns.push(turnId);
  const resent = await postTurn(first.url, refund.clientTurnId, refund.text);
  check(
    resent.status === 409 && resent.body?.code === 'turn-in-flight',
    `sending the same message again (a flaky network might) answered ${resent.status} ${resent.body?.code}: no second turn`,
  );

  step(
    'The answer streams in, and the connection drops halfway',
    `The answer arrives as numbered events, its text in small pieces. After the second piece we cut the connection and keep the client away a moment${second === first ? '' : ', then send it to host B'}; it reconnects by itself and the host sends only what it missed.`,
  );
  const relay = await startRelay(first.url);
  let pieces = 0;
  let cutAfter = 0;
  let cardAnswered = null;
  const live = await followTurn(
    relay.url,
    turnId,
    async (envelope) => {
      if (envelope.event.type === 'delta' && ++pieces === 2) {
        cutAfter = envelope.seq;
        line(red('   ✂ connection cut (what was already on its way still arrives)'));
        relay.cut(second.url);
        // The turn goes on without the client: let it back once the host has written more (the refund's result).
        void waitForProgress(refund.clientTurnId, envelope.seq + 4).then((lastSeq) => {
          line(dim(`   (meanwhile the host went on writing, up to event ${lastSeq}; now the client may reconnect)`));
          relay.restore();
        });
      }
      if (envelope.event.type === 'tool_call') {
        line(
          dim(
            '   The refund is an effect outside the chat: the host records that it is starting before it runs, so a retry can never refund twice.',
          ),
        );
      }
      if (envelope.event.type === 'card') {
        const { correlationId } = envelope.event.card;
        line(dim(`   We answer the card with an HTTP POST${second === first ? '' : ' to host B'}, as a button click would.`));
        cardAnswered = await request(second.url, 'POST', `/${conversationId}/cards/${correlationId}`, TOKENS.ana, {
          action: 'submit',
          correlationId,
          value: { confirmed: true },
        });
        line(`   POST /cards/${correlationId} answered ${cardAnswered.status} ${cardAnswered.body?.status}`);
      }
    },
    { reconnectTarget: second === first ? '' : ' (the relay now leads to host B)' },
  );
  const contiguous = live.seqs.every((seq, index) => seq === index + 1);
  check(
    live.reconnects.length === 1 && live.reconnects[0] >= cutAfter && isDeepStrictEqual(live.resumedFrom, live.reconnects),
    `the client reconnected once, on its own${second === first ? '' : ' to host B'}, from the last event it had read`,
  );
  const caughtUp = live.caughtUp;
  const [, resumed] = relay.connections;
  const resumedAfter = live.resumedFrom[0] ?? 0;
  check(
    resumed?.lastEventId === `${turnId}:${resumedAfter}` && resumed.firstFrameId === `${turnId}:${resumedAfter + 1}`,
    `the reconnect asked for everything after event ${resumedAfter}, and the host's first frame back was event ${resumed?.firstFrameId?.split(':')[1]}: nothing resent`,
  );
  check(
    caughtUp.length > 0 && caughtUp[0] === (live.resumedFrom[0] ?? 0) + 1,
    `on reconnecting, the host sent the ${caughtUp.length} events written while the client was away (${caughtUp[0]} to ${caughtUp.at(-1)}) before the live ones`,
  );
  check(contiguous && live.duplicates === 0, `events 1 to ${live.seqs.length} arrived once each: no event repeated, none missing`);
  const turn = clientState.turns.find((candidate) => candidate.turnId === turnId);
  check(turn?.text === live.text, 'the pieces of text put together are exactly the answer: nothing repeated at the cut');
  check(live.blocks.length === 1 && live.blocks[0].title === 'Refund', 'the block arrived whole, in pieces, and was read as a report');
  check(turn?.toolCalls[0]?.result?.status === 'succeeded', 'the refund tool succeeded');
  check(cardAnswered?.status === 200 && turn?.cards[0]?.resolution === 'submitted', 'the card was answered and closed');
  check(turn?.status === 'completed', 'the turn completed');

  step(
    "Bob, from another company, asks for Ana's conversation",
    'Ana and Bob work for different companies, two tenants of the same host, whose data is kept apart. A conversation someone may not see answers exactly like one that does not exist, so its existence is not given away.',
  );
  const statusPath = `/${conversationId}/turns/by-client-id/${refund.clientTurnId}`;
  const foreign = await request(second.url, 'GET', statusPath, TOKENS.bob);
  const missing = await request(second.url, 'GET', `/c_no_such_conversation/turns/by-client-id/${refund.clientTurnId}`, TOKENS.ana);
  line(`   Bob gets ${foreign.status} ${JSON.stringify(foreign.body)}`);
  check(foreign.status === 404 && isDeepStrictEqual(foreign, missing), 'the same answer as a conversation that does not exist');

  step(
    'Ana asks for a second refund and cancels it while the refund is running',
    'The cancellation is saved first. The refund already under way cannot be called back, so when its result arrives late it is kept, not lost.',
  );
  const secondRefund = { clientTurnId: createTurnId(), text: 'Refund order 1042 once more, please.' };
  const cancelStarted = await postTurn(first.url, secondRefund.clientTurnId, secondRefund.text);
  const cancelTurnId = cancelStarted.body?.turnId;
  turns.push(cancelTurnId);
  let cancelled = null;
  const cancelSeen = await followTurn(first.url, cancelTurnId, async (envelope) => {
    if (envelope.event.type === 'tool_call') {
      // The host claims and launches the refund right after it logs the call: give it a moment, well inside the refund's run.
      await new Promise((resolve) => setTimeout(resolve, TOOL_DELAY_MS / 4));
      cancelled = await request(first.url, 'POST', `/${conversationId}/turns/${cancelTurnId}/cancel`, TOKENS.ana);
      line(`   POST /cancel answered ${cancelled.status}: still running when cancelled: ${JSON.stringify(cancelled.body?.inFlight)}`);
    }
  });
  check(cancelled?.status === 200 && cancelled.body?.committed === true, 'the cancellation was saved before anything was stopped');
  // The host mints each tool call's effect id from the turn and the call's ordinal: the refund is the turn's first call.
  const refundEffectId = `effect_${cancelTurnId}_1`;
  check(cancelled?.body?.inFlight?.includes(refundEffectId) === true, 'the host reported the refund as already running');
  check(
    cancelSeen.ended !== null && clientState.turns.find((candidate) => candidate.turnId === cancelTurnId)?.status === 'cancelled',
    'the turn ended cancelled',
  );
  line(dim(`   Waiting ${TOOL_DELAY_MS / 1000} s for the refund to finish anyway…`));
  await new Promise((resolve) => setTimeout(resolve, TOOL_DELAY_MS + 500));
  const afterLate = await request(first.url, 'GET', `/${conversationId}/turns/by-client-id/${secondRefund.clientTurnId}`, TOKENS.ana);
  check(
    afterLate.body?.status === 'cancelled',
    `after the late result the turn is still ${afterLate.body?.status}: it did not come back to life`,
  );

  step(
    'A turn fails',
    'A message starting with "fail" makes the scripted agent\'s provider fail. The host says whether and when the client may try again.',
  );
  const failing = { clientTurnId: createTurnId(), text: 'fail: refund order 1042 a third time' };
  const failStarted = await postTurn(first.url, failing.clientTurnId, failing.text);
  turns.push(failStarted.body?.turnId);
  await followTurn(first.url, failStarted.body?.turnId);
  const failedTurn = clientState.turns.find((candidate) => candidate.turnId === failStarted.body?.turnId);
  check(failedTurn?.status === 'failed' && failedTurn.error?.retryable === true, 'the turn failed, and retrying is allowed');
  const failResent = await postTurn(first.url, failing.clientTurnId, failing.text);
  check(
    failResent.status === 409 && failResent.body?.code === 'turn-already-processed',
    `resending the same turn answered ${failResent.status} ${failResent.body?.code}: a retry is a new turn with a new id`,
  );

  step(
    'Check the final state against a clean replay',
    `A fresh client${second === first ? '' : ' on host B'} replays every turn from its first event, and the database is read directly; both must match what the live client built.`,
  );
  let replayed = createChatState(conversationId);
  for (const id of turns) {
    for await (const item of readChatStream({
      url: `${second.url}/v1/conversations/${conversationId}/turns/${id}/events`,
      headers: headersOf(TOKENS.ana),
    })) {
      if (item.type !== 'envelope') continue;
      const applied = applyChatEvent(replayed, item.envelope);
      if (applied.ok) replayed = applied.state;
    }
  }
  check(isDeepStrictEqual(replayed, clientState), `the replay of ${turns.length} turns over HTTP equals the live client's state`);

  // The hosts stop first: PGlite serves one process at a time.
  for (const host of new Set([first, second])) await host.stop();
  const database = await openDatabase();
  try {
    const store = createPostgresChatStore(database.database);
    let fromDatabase = createChatState(conversationId);
    for (const id of turns) {
      const window = await store.eventLog.replayWindow({ conversationId, turnId: id, after: 0 });
      for (const envelope of window.frames) {
        const applied = applyChatEvent(fromDatabase, envelope);
        if (applied.ok) fromDatabase = applied.state;
      }
    }
    check(isDeepStrictEqual(fromDatabase, clientState), "the events stored in the database give exactly the live client's state");
    const record = (await store.turnStore.read(cancelTurnId))?.record;
    const refundEffect = record?.effects.find((effect) => effect.effectId === refundEffectId);
    check(
      record?.status === 'cancelled' && refundEffect?.status === 'completed' && refundEffect.result?.summary === 'refund 1042 issued',
      `the cancelled turn's refund finished late and its result is kept: ${refundEffect?.status} (${refundEffect?.result?.summary})`,
    );
  } finally {
    await database.close();
  }
}

async function openDatabase() {
  if (databaseUrl !== null) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    return { database: pgDatabase(pool), close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dataDirectory);
  return { database: pgliteDatabase(db), close: () => db.close() };
}

try {
  await main();
} catch (error) {
  check(false, `the demo stopped: ${error instanceof Error ? error.message : String(error)}`);
}
line();
line(failures === 0 ? green(bold(`All ${checks} checks passed.`)) : red(bold(`${failures} of ${checks} checks failed.`)));
await finish(failures === 0 ? 0 : 1);
