/**
 * Bring your own model (issue 26, "Measure"): `createAiSdkChatAgent` with the
 * `ai` package's own `MockLanguageModelV3` through the reference host, beside
 * what a user would otherwise run: the AI SDK's own route,
 * `streamText(...).toUIMessageStreamResponse()` with the same mock and no
 * durability (the floor). Both serve the AI SDK's UI message stream from a
 * Node `http` server in a child process of their own, and both are read by the
 * AI SDK's own client (`DefaultChatTransport`, what `useChat` runs) in this
 * process, on the same content: every turn its own conversation and text, and
 * the model streams the same deltas for it on either side. The host runs on
 * PGlite in memory and on a throwaway real Postgres server. It measures turns
 * per second at 1 and 8 clients, the time from the model emitting a delta to
 * the client reading it, and the time from a client sending a cancel to the
 * model's call seeing its abort signal, on the host that runs the turn and, on
 * the Postgres server, on another host process. Nothing is asserted.
 *
 * `node src/agent.mjs` runs this section alone and prints it.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createAiSdkChatAgent } from '@papercusp/chat-protocol-ai-sdk/agent';
import { createChatHost, createNodeRequestListener } from '@papercusp/chat-protocol-host';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { readChatStream } from '@papercusp/chat-protocol-sse';
import { convertToModelMessages, DefaultChatTransport, simulateReadableStream, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { startPostgresCluster } from '../../../test-support/postgres-cluster.mjs';
import { callerOf, deltaDelays, delayCell, milliseconds, openBenchStore, post, quantile, rate, turnsPerSecond } from './host.mjs';
import { markdownTable } from './markdown-table.mjs';
import { ask } from './sse.mjs';

const CHILD_FLAG = '--agent-server';
const SELF = fileURLToPath(import.meta.url);
const SETTINGS = {
  /** Each cell runs turns for at least this long (after a warm-up turn per client). */
  throughputMilliseconds: Number(process.env.HOST_BENCH_MS ?? 3_000),
  concurrency: [1, 8],
  /** The text deltas the model streams per turn, each of 8 characters. */
  deltasPerTurn: 30,
  /** The model's pace in the latency cells: one delta every this many milliseconds (50 a second, a fast model). */
  pacedDeltaMs: 20,
  poolSize: 10,
  /** Turns cancelled mid-stream per cancel row. */
  cancelledTurns: Number(process.env.AGENT_BENCH_CANCELS ?? 200),
  /** Clients cancelling at once through another host process (its cancellation reaches the owner through the poll). */
  crossProcessCancelClients: 8,
  /** The host's default `cancelPollMs`, which every host of this bench runs with. */
  cancelPollMs: 500,
};

const now = () => performance.timeOrigin + performance.now();
const progress = (line) => process.stderr.write(`bench/agent: ${line}\n`);

// The turn's number, read back from the person's text in the prompt: the key of its stamps on both sides.
const turnNumberOf = (prompt) => /order (\d+)/.exec(JSON.stringify(prompt))?.[1] ?? 'unknown';

// The text of a turn the cancel rows cancel: its model call streams one delta, then waits for its abort.
const CANCELLED_TURN_TEXT = 'Cancel order';

/**
 * A model call that streams one delta and then nothing until its abort signal fires, stamping that moment as
 * `abort:<turn number>`.
 */
function hangingStream(stamps, turn, abortSignal) {
  return new ReadableStream({
    start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] });
      controller.enqueue({ type: 'text-start', id: 'text_1' });
      controller.enqueue({ type: 'text-delta', id: 'text_1', delta: 'Thinking' });
      abortSignal?.addEventListener('abort', () => {
        stamps.set(`abort:${turn}`, now());
        controller.error(abortSignal.reason);
      });
    },
  });
}

/**
 * The same mock model on both sides: for each call it streams `deltasPerTurn`
 * text deltas that spell out the turn's number, as fast as they are read or one
 * every `pace.deltaMs`, stamping the moment it emits each one (by turn number
 * and delta index). A turn of the cancel rows gets a {@link hangingStream} instead.
 */
function stampingModel(stamps, pace) {
  return new MockLanguageModelV3({
    doStream: async ({ prompt, abortSignal }) => {
      const turn = turnNumberOf(prompt);
      if (JSON.stringify(prompt).includes(CANCELLED_TURN_TEXT)) return { stream: hangingStream(stamps, turn, abortSignal) };
      const chunks = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 'text_1' },
        ...Array.from({ length: SETTINGS.deltasPerTurn }, (_, index) => ({
          type: 'text-delta',
          id: 'text_1',
          delta: `${turn}-${index}`.padEnd(8, '.').slice(0, 8),
        })),
        { type: 'text-end', id: 'text_1' },
        {
          type: 'finish',
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: SETTINGS.deltasPerTurn, text: SETTINGS.deltasPerTurn, reasoning: undefined },
          },
        },
      ];
      let index = 0;
      const stamped = simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: pace.deltaMs }).pipeThrough(
        new TransformStream({
          transform(chunk, controller) {
            if (chunk.type === 'text-delta') stamps.set(`${turn}:${index++}`, now());
            controller.enqueue(chunk);
          },
        }),
      );
      return { stream: stamped };
    },
  });
}

/** The floor: the AI SDK's own chat route with the mock, no store: what `useChat`'s quick start runs. */
function floorHandler(model) {
  return async (request) => {
    const { messages } = await request.json();
    const result = streamText({ model, messages: await convertToModelMessages(messages) });
    return result.toUIMessageStreamResponse();
  };
}

/** The host with `createAiSdkChatAgent` on `backend`; its AI SDK route serves the same stream shape as the floor. */
async function hostHandler(model, backend) {
  const { store, close } = await openBenchStore(backend, SETTINGS.poolSize);
  const handler = createChatHost({
    store,
    agent: createAiSdkChatAgent({ model }),
    authenticate: (request) => callerOf(request.headers.get('authorization')),
    heartbeatMs: 600_000,
  });
  return { handler, close };
}

/** The child: one server (`floor` or the host on a backend) behind node:http, answering stamp and stop requests over IPC. */
async function runChild(target) {
  const stamps = new Map();
  const pace = { deltaMs: null };
  const model = stampingModel(stamps, pace);
  const served = target.kind === 'floor' ? { handler: floorHandler(model), close: async () => {} } : await hostHandler(model, target);
  const server = createServer(createNodeRequestListener(served.handler));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', async (message) => {
    if (message.type === 'pace') {
      pace.deltaMs = message.deltaMs;
      process.send({ type: 'paced' });
    } else if (message.type === 'stamps') {
      process.send({ type: 'stamps', stamps: [...stamps] });
      stamps.clear();
    } else if (message.type === 'stop') {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await served.close();
      process.exit(0);
    }
  });
  process.send({ type: 'ready', port: server.address().port });
}

let sequence = 0;

/** One whole turn as the AI SDK's client runs it: every text delta's arrival recorded by turn number and index. */
async function runClientTurn(url, arrivals) {
  sequence += 1;
  const turn = String(10_000 + sequence);
  const token = `token_${sequence}`;
  const transport = new DefaultChatTransport({ api: url, headers: { authorization: `Bearer ${token}` } });
  const stream = await transport.sendMessages({
    chatId: `c_bench_${sequence}_conversation`,
    messages: [{ id: `msg_${sequence}`, role: 'user', parts: [{ type: 'text', text: `Where is order ${turn}?` }] }],
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });
  let deltas = 0;
  let finished = false;
  for await (const chunk of stream) {
    if (chunk.type === 'text-delta') arrivals.set(`${turn}:${deltas++}`, now());
    if (chunk.type === 'finish') finished = true;
  }
  if (!finished || deltas !== SETTINGS.deltasPerTurn) throw new Error(`turn ${turn} ended after ${deltas} deltas (finished: ${finished})`);
  return deltas;
}

/**
 * One turn cancelled mid-stream as a v1 client does it: `POST /turns` on `owner`, its events read there until the
 * model's first delta, then `POST /turns/:turnId/cancel` on `canceller` (the same host, or another process on the same
 * store), the moment it is sent recorded by turn number; then the events are read to their `done`, which must say
 * `cancelled`.
 */
async function runCancelledTurn(owner, canceller, sentAt) {
  sequence += 1;
  const turn = String(10_000 + sequence);
  const token = `token_${sequence}`;
  const prefix = `/v1/conversations/c_bench_${sequence}_conversation`;
  const clientTurnId = createTurnId();
  const text = `${CANCELLED_TURN_TEXT} ${turn} while it streams`;
  const { turnId } = await post(owner, `${prefix}/turns`, token, { clientTurnId, text }, { 'Idempotency-Key': clientTurnId });
  let cancelled;
  let status;
  const url = `${owner}${prefix}/turns/${turnId}/events`;
  for await (const item of readChatStream({ url, headers: { authorization: `Bearer ${token}` } })) {
    if (item.type !== 'envelope') continue;
    const { event } = item.envelope;
    if (event.type === 'delta' && cancelled === undefined) {
      sentAt.set(turn, now());
      cancelled = post(canceller, `${prefix}/turns/${turnId}/cancel`, token, {});
    }
    if (event.type === 'done') status = event.status;
  }
  await cancelled;
  if (status !== 'cancelled') throw new Error(`the cancelled turn ${turnId} ended ${status}`);
}

/**
 * `cancelledTurns` turns owned by `owner` (whose child stamps the aborts), cancelled through `cancellerBase` by
 * `clients` clients at once: the time from each cancel's sending to the model call's abort, sorted.
 */
async function cancelLatencies(owner, cancellerBase, clients) {
  await ask(owner.child, { type: 'stamps' }, 'stamps');
  const sentAt = new Map();
  let started = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (started < SETTINGS.cancelledTurns) {
        started += 1;
        await runCancelledTurn(owner.base, cancellerBase, sentAt);
      }
    }),
  );
  const { stamps } = await ask(owner.child, { type: 'stamps' }, 'stamps');
  const aborts = new Map(stamps);
  const latencies = [];
  for (const [turn, sent] of sentAt) {
    const abortedAt = aborts.get(`abort:${turn}`);
    if (abortedAt === undefined) throw new Error(`the model call of the cancelled turn ${turn} never saw its abort`);
    latencies.push(abortedAt - sent);
  }
  latencies.sort((left, right) => left - right);
  return { turns: latencies.length, clients, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), max: latencies.at(-1) };
}

async function startChild(target) {
  const child = fork(SELF, [CHILD_FLAG, JSON.stringify(target)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`agent bench child exited ${code}`)));
  });
  return { child, base: `http://127.0.0.1:${ready.port}` };
}

async function stopChild(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ type: 'stop' });
  await exited;
}

/**
 * One server at each concurrency: turns per second with the model as fast as
 * it is read, then the delta → client delays with the model at its paced rate
 * (so a delay is the server's, not a queue of deltas the model produced ahead).
 */
async function measureTarget(name, target, path, { cancels = false, crossProcess = false } = {}) {
  progress(`${name}: starting`);
  const { child, base } = await startChild(target);
  const run = (arrivals) => runClientTurn(`${base}${path}`, arrivals);
  try {
    const cells = {};
    for (const concurrency of SETTINGS.concurrency) {
      progress(`${name}: turns per second, ${concurrency} concurrent`);
      cells[concurrency] = { rate: (await turnsPerSecond(base, concurrency, run, SETTINGS.throughputMilliseconds)).rate };
    }
    await ask(child, { type: 'pace', deltaMs: SETTINGS.pacedDeltaMs }, 'paced');
    await ask(child, { type: 'stamps' }, 'stamps');
    for (const concurrency of SETTINGS.concurrency) {
      progress(`${name}: delta → client at ${1000 / SETTINGS.pacedDeltaMs} deltas/s, ${concurrency} concurrent`);
      const cell = await turnsPerSecond(base, concurrency, run, SETTINGS.throughputMilliseconds);
      const { stamps } = await ask(child, { type: 'stamps' }, 'stamps');
      const delays = deltaDelays(new Map(stamps), cell.arrivals);
      cells[concurrency].delay = { deltas: delays.length, p50: quantile(delays, 0.5), p99: quantile(delays, 0.99), max: delays.at(-1) };
    }
    if (!cancels) return { name, cells };
    progress(`${name}: ${SETTINGS.cancelledTurns} turns cancelled on the host that runs them`);
    const cancel = { owner: await cancelLatencies({ child, base }, base, 1) };
    if (crossProcess) {
      progress(`${name}: ${SETTINGS.cancelledTurns} turns cancelled through another host process`);
      const other = await startChild(target);
      try {
        cancel.other = await cancelLatencies({ child, base }, other.base, SETTINGS.crossProcessCancelClients);
      } finally {
        await stopChild(other.child);
      }
    }
    return { name, cells, cancel };
  } finally {
    await stopChild(child);
  }
}

/** The floor and the host on both stores, in one run (the Postgres server is stopped in a `finally`). */
export async function measureAgent() {
  const loadAtStart = loadavg()[0];
  const startedAt = performance.now();
  const floor = await measureTarget('the AI SDK route (floor)', { kind: 'floor' }, '/');
  const hosts = [await measureTarget('host, PGlite in memory', { kind: 'pglite' }, '/v1/ai-sdk/chat', { cancels: true })];
  let cluster;
  try {
    cluster = await startPostgresCluster();
    const target = { kind: 'postgres', url: cluster.url };
    hosts.push(await measureTarget('host, Postgres server', target, '/v1/ai-sdk/chat', { cancels: true, crossProcess: true }));
  } finally {
    await cluster?.destroy();
  }
  return { loadAtStart, cores: cpus().length, seconds: (performance.now() - startedAt) / 1000, floor, hosts };
}

/** The RESULTS.md section of the agent benchmark. */
export function agentSection(results) {
  const { floor } = results;
  const row = (target, ratio) => ({
    target: target.name,
    c1: rate(target.cells[1].rate),
    c8: rate(target.cells[8].rate),
    ratio,
    delay1: delayCell(target.cells[1].delay),
    delay8: delayCell(target.cells[8].delay),
  });
  const ratioOf = (target) =>
    SETTINGS.concurrency
      .map((concurrency) => `${(floor.cells[concurrency].rate / target.cells[concurrency].rate).toFixed(1)}×`)
      .join(' / ');
  const table = markdownTable(
    {
      target: 'server',
      c1: 'turns/s, 1 client',
      c8: 'turns/s, 8 clients',
      ratio: "the floor's turns/s ÷ this one's, 1 / 8 clients",
      delay1: `model delta → client p50 / p99 / max at ${1000 / SETTINGS.pacedDeltaMs} deltas/s, 1 client`,
      delay8: '8 clients',
    },
    [row(floor, '1.0× / 1.0×'), ...results.hosts.map((target) => row(target, ratioOf(target)))],
  );
  const cancelRow = (target, where, latencies) => ({
    target: target.name,
    where: `${where}, ${latencies.clients} client${latencies.clients === 1 ? '' : 's'}`,
    latency: `${milliseconds(latencies.p50)} / ${milliseconds(latencies.p99)} / ${milliseconds(latencies.max)}`,
    turns: latencies.turns.toLocaleString('en'),
  });
  const cancelTable = markdownTable(
    {
      target: 'server',
      where: 'cancelled on',
      latency: 'cancel sent → model call aborted, p50 / p99 / max',
      turns: 'turns',
    },
    results.hosts.flatMap((target) => [
      cancelRow(target, 'the host running the turn', target.cancel.owner),
      ...(target.cancel.other === undefined
        ? []
        : [cancelRow(target, `another host process (its cancellation poll, ${SETTINGS.cancelPollMs} ms)`, target.cancel.other)]),
    ]),
  );
  const loadNote = results.loadAtStart > results.cores ? ' (more than the cores: expect lower rates)' : '';
  return `## Bring your own model: \`createAiSdkChatAgent\` through the host (issue 26)

One-minute load average at the start of this section ${results.loadAtStart.toFixed(2)}${loadNote}; it took ${results.seconds.toFixed(1)} s.

${table}

- The same \`MockLanguageModelV3\` on every row streams ${SETTINGS.deltasPerTurn} text deltas of 8 characters per turn (no tools): as
  fast as they are read for the turns per second, one every ${SETTINGS.pacedDeltaMs} ms (a fast model) for the delays. The floor is the AI SDK's own route: \`streamText({ model, messages })\` and
  \`toUIMessageStreamResponse()\`, nothing stored. The host rows run \`createChatHost\` with \`createAiSdkChatAgent({ model })\`
  on \`createPostgresChatStore\` (PGlite in memory, or a throwaway Postgres server through a \`pg\` Pool of ${SETTINGS.poolSize}), and serve
  the turn on its AI SDK route (\`POST /v1/ai-sdk/chat\`): every delta appended to the durable log before the client
  reads it, the turn resumable and cancellable from any process. Each server runs in a child process of its own behind
  \`createNodeRequestListener\`.
- Clients in this process run whole turns back to back with the AI SDK's own \`DefaultChatTransport.sendMessages\`
  (what \`useChat\` runs), reading its validated chunk stream to \`finish\`; each turn is a new conversation of a new
  caller with its own text. At least ${SETTINGS.throughputMilliseconds / 1000} s per cell, after one warm-up turn per client.
- Model delta → client: the model's emission of each delta is stamped in the server process and its arrival at the
  client in this one (\`performance.timeOrigin + performance.now()\` on both sides).
- The ratio is the price of durability: what the host does between the model and the client (the frame checked by
  core's parser, appended to the store's log, the log waking the stream, the v1 envelope re-encoded as the AI SDK's
  chunks). Issue 28's group commit is where it shrinks.

${cancelTable}

- Cancellation (issue 26: a cancel aborts the provider call within 100 ms in the owning process): each turn's model
  call streams one delta, then waits for its abort signal. The client reads the turn's events on the host that runs
  it until that delta, sends \`POST /turns/:turnId/cancel\` (the moment it sends is stamped in this process), and reads
  on to \`done { status: 'cancelled' }\`; the model stamps the moment its call's abort signal fires, in the host's
  process. On the host running the turn the route commits the cancellation, then aborts the run, whose signal is the
  model call's. Through another host process (same Postgres server) the cancellation commits there and reaches the
  owner through its turn record, read every \`cancelPollMs\` (the default, ${SETTINGS.cancelPollMs} ms): up to one interval plus a read.
  A run's first read comes one interval after it starts, and these cancels come right after the turn's first delta,
  so most wait nearly a whole interval. Turns run back to back by the clients shown, each a new conversation and caller.
`;
}

if (process.argv.includes(CHILD_FLAG)) await runChild(JSON.parse(process.argv[process.argv.indexOf(CHILD_FLAG) + 1]));
else if (process.argv[1] === SELF) console.log(agentSection(await measureAgent()));
