/**
 * The transport benchmark (issue 16): `createChatSseResponse` behind a Node
 * `http` server on loopback, read by `readChatStream`, over the testkit's
 * in-memory event log (so the transport's own cost is what is timed). Against
 * the floor in the same run: the same frames written straight to the socket
 * and read with `fetch` + `eventsource-parser` + `JSON.parse`, with no log,
 * no resume and no strict parse. It measures frames per second to one client,
 * the time to resume a 10,000-frame turn after a drop, and 1,000 concurrent
 * resumable streams on one server process (memory per connection, the delay
 * from append to client). Wall time throughout: the work waits on sockets.
 */
import { fork } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { encodeChatSseFrame } from '@papercusp/chat-protocol-core';
import { createChatSseResponse, readChatStream, writeChatSseResponse } from '@papercusp/chat-protocol-sse';
import { createFakeChatEventLog, createFakeDatabase } from '@papercusp/chat-protocol-testkit';
import { createParser } from 'eventsource-parser';
import { measureBundle } from './bundle-size.mjs';
import { markdownTable } from './markdown-table.mjs';

const GOALS = { clientGzippedBytes: 10_000 };
const ONE_CLIENT_FRAMES = 20_000;
const RESUME_FRAMES = 10_000;
const STREAMS = 1_000;
const ROUNDS = 5;
const CONVERSATION = 'conv_bench_sse';
const SELF = fileURLToPath(import.meta.url);

const progress = (line) => process.stderr.write(`bench/sse: ${line}\n`);
const now = () => performance.timeOrigin + performance.now();
const envelopeOf = (turnId, seq, event) => ({
  schemaVersion: 1,
  conversationId: CONVERSATION,
  turnId,
  eventId: `${turnId}_e${seq}`,
  seq,
  occurredAt: '2031-05-01T08:00:00Z',
  event,
});
// Distinct text per frame, about the size of a model's delta.
const deltaText = (seq) => `token ${seq} of the reply, with a little more text to carry`;

/** A log holding one finished turn of `frames` deltas and a `done`. */
async function finishedTurn(log, turnId, frames) {
  for (let seq = 1; seq <= frames; seq += 1) await log.append(envelopeOf(turnId, seq, { type: 'delta', text: deltaText(seq) }));
  await log.append(envelopeOf(turnId, frames + 1, { type: 'done', status: 'completed' }));
}

/** Serves `GET /turns/<turnId>` from `log` through `createChatSseResponse`; `POST /append/<count>` appends a stamped delta to the first `count` turns. */
function serveLog(log) {
  const server = createServer(async (incoming, outgoing) => {
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const [, route, id] = url.pathname.split('/');
    if (route === 'turns' && id !== undefined) {
      const controller = new AbortController();
      outgoing.once('close', () => controller.abort());
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
      const request = new Request(url, { headers, signal: controller.signal });
      const response = await createChatSseResponse(request, { log, conversationId: CONVERSATION, turnId: id, heartbeatMs: 60_000 });
      await writeChatSseResponse(response, outgoing);
      return;
    }
    outgoing.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The floor: the same frames written straight to the socket, no log, no resume. */
function serveRaw(frames) {
  const body = frames.join('');
  const server = createServer((incoming, outgoing) => {
    outgoing.writeHead(200, { 'content-type': 'text/event-stream' });
    outgoing.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const urlOf = (server, path) => `http://127.0.0.1:${server.address().port}${path}`;
const close = (server) => new Promise((resolve) => server.close(() => resolve()));

/** Reads a turn through `readChatStream` and answers how many envelopes arrived. */
async function readThrough(url, cursor) {
  let envelopes = 0;
  for await (const item of readChatStream({ url, ...(cursor ? { cursor } : {}) })) {
    if (item.type === 'envelope') envelopes += 1;
    if (item.type === 'ended' && item.reason !== 'terminal') throw new Error(`the stream ended ${item.reason}`);
  }
  return envelopes;
}

/** Reads the floor's body with fetch + eventsource-parser + JSON.parse. */
async function readRaw(url) {
  let messages = 0;
  const parser = createParser({
    onEvent: (event) => {
      JSON.parse(event.data);
      messages += 1;
    },
  });
  const response = await fetch(url);
  const decoder = new TextDecoder();
  for await (const chunk of response.body) parser.feed(decoder.decode(chunk, { stream: true }));
  return messages;
}

async function timed(run, expected) {
  const startedAt = now();
  const count = await run();
  if (count !== expected) throw new Error(`expected ${expected} frames, read ${count}`);
  return now() - startedAt;
}

/** The child process of the concurrent-streams measure: a server that reports its memory and appends on request. */
async function runServerChild() {
  const log = createFakeChatEventLog(createFakeDatabase());
  const server = await serveLog(log);
  let seq = 0;
  process.on('message', async (message) => {
    if (message.type === 'memory') {
      globalThis.gc?.();
      process.send({ type: 'memory', heapUsed: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss });
    } else if (message.type === 'append') {
      seq += 1;
      for (let index = 0; index < message.streams; index += 1) {
        await log.append(envelopeOf(`turn_bench_live_${index}`, seq, { type: 'delta', text: String(now()) }));
      }
      process.send({ type: 'appended', seq });
    } else if (message.type === 'stop') {
      server.closeAllConnections();
      await close(server);
      process.exit(0);
    }
  });
  process.send({ type: 'ready', port: server.address().port });
}

/** Sends `message` to a child process and resolves with its first reply of type `answer`. */
export function ask(child, message, answer) {
  return new Promise((resolve) => {
    const onMessage = (reply) => {
      if (reply.type !== answer) return;
      child.off('message', onMessage);
      resolve(reply);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/** 1,000 streams held open by this process on a server in a child process: memory per connection and append → client delay. */
async function measureConcurrentStreams(median) {
  const child = fork(SELF, ['--sse-server'], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const { port } = await new Promise((resolve) => child.once('message', resolve));
    const before = await ask(child, { type: 'memory' }, 'memory');
    const controller = new AbortController();
    // One signal ends every stream: each of them listens to it.
    setMaxListeners(STREAMS * 2, controller.signal);
    const delays = [];
    let connected = 0;
    let expectedSeq = 0;
    const arrivals = new Map();
    const readers = Array.from({ length: STREAMS }, async (_, index) => {
      const url = `http://127.0.0.1:${port}/turns/turn_bench_live_${index}`;
      for await (const item of readChatStream({ url, signal: controller.signal, cursor: { turnId: `turn_bench_live_${index}`, seq: 0 } })) {
        if (item.type === 'connected') connected += 1;
        if (item.type === 'envelope') {
          delays.push(now() - Number(item.envelope.event.text));
          arrivals.set(item.envelope.seq, (arrivals.get(item.envelope.seq) ?? 0) + 1);
        }
      }
    });
    while (connected < STREAMS) await new Promise((resolve) => setTimeout(resolve, 50));
    const open = await ask(child, { type: 'memory' }, 'memory');
    progress(`${STREAMS} streams open; appending ${ROUNDS} rounds`);
    for (let round = 0; round < ROUNDS; round += 1) {
      expectedSeq = (await ask(child, { type: 'append', streams: STREAMS }, 'appended')).seq;
      while ((arrivals.get(expectedSeq) ?? 0) < STREAMS) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    controller.abort();
    await Promise.all(readers);
    delays.sort((left, right) => left - right);
    const quantile = (share) => delays[Math.min(delays.length - 1, Math.floor(share * delays.length))];
    return {
      streams: STREAMS,
      rounds: ROUNDS,
      heapPerStream: (open.heapUsed - before.heapUsed) / STREAMS,
      rssPerStream: (open.rss - before.rss) / STREAMS,
      p50: median(delays),
      p99: quantile(0.99),
      max: delays[delays.length - 1],
    };
  } finally {
    child.send({ type: 'stop' });
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
  }
}

/** Every measure of the transport; `samples` rounds of the one-client and resume measures. */
export async function measureSse({ median, samples = 5 }) {
  const log = createFakeChatEventLog(createFakeDatabase());
  progress(`filling a ${ONE_CLIENT_FRAMES.toLocaleString('en')}-frame turn and a ${RESUME_FRAMES.toLocaleString('en')}-frame turn`);
  await finishedTurn(log, 'turn_bench_one', ONE_CLIENT_FRAMES);
  await finishedTurn(log, 'turn_bench_resume', RESUME_FRAMES);
  const frames = [];
  for (let seq = 1; seq <= ONE_CLIENT_FRAMES; seq += 1)
    frames.push(encodeChatSseFrame(envelopeOf('turn_bench_one', seq, { type: 'delta', text: deltaText(seq) })));
  frames.push(encodeChatSseFrame(envelopeOf('turn_bench_one', ONE_CLIENT_FRAMES + 1, { type: 'done', status: 'completed' })));
  const server = await serveLog(log);
  const raw = await serveRaw(frames);
  try {
    const ours = [];
    const floor = [];
    const resume = [];
    for (let round = 0; round < samples; round += 1) {
      progress(`one client, round ${round + 1} of ${samples}`);
      floor.push(await timed(() => readRaw(urlOf(raw, '/')), ONE_CLIENT_FRAMES + 1));
      ours.push(await timed(() => readThrough(urlOf(server, '/turns/turn_bench_one')), ONE_CLIENT_FRAMES + 1));
      // A drop at the start: the client resumes from cursor 0 and takes the whole retained turn.
      resume.push(
        await timed(
          () => readThrough(urlOf(server, '/turns/turn_bench_resume'), { turnId: 'turn_bench_resume', seq: 0 }),
          RESUME_FRAMES + 1,
        ),
      );
    }
    progress(`${STREAMS} concurrent streams`);
    const concurrent = await measureConcurrentStreams(median);
    return {
      oneClient: {
        frames: ONE_CLIENT_FRAMES + 1,
        ours: (ONE_CLIENT_FRAMES + 1) / (median(ours) / 1_000),
        floor: (ONE_CLIENT_FRAMES + 1) / (median(floor) / 1_000),
      },
      resume: { frames: RESUME_FRAMES + 1, milliseconds: median(resume) },
      concurrent,
    };
  } finally {
    server.closeAllConnections();
    raw.closeAllConnections();
    await Promise.all([close(server), close(raw)]);
  }
}

const CORE_CLIENT = "export { applyChatEvent, createChatState, parseChatEnvelope } from '@papercusp/chat-protocol-core';";

/**
 * The browser client: core's parse and reducer with this package's reader and
 * folder, minified and gzipped; `parts` are the gzipped sizes of the strict
 * parser alone and of core's parse and reducer alone, to say where the bytes go.
 */
export async function measureSseClientBundle() {
  const bundle = await measureBundle(
    `${CORE_CLIENT} export { followChatTurn, readChatStream, parseChatMessageEvent } from '@papercusp/chat-protocol-sse';`,
  );
  const parser = await measureBundle("export { parseChatEnvelope } from '@papercusp/chat-protocol-core';");
  const core = await measureBundle(CORE_CLIENT);
  return { ...bundle, parts: { parserGzippedBytes: parser.gzippedBytes, coreGzippedBytes: core.gzippedBytes } };
}

const rate = (value) => `${Math.round(value).toLocaleString('en')}/s`;
const milliseconds = (value) => `${value < 10 ? value.toFixed(2) : Math.round(value).toLocaleString('en')} ms`;
const bytes = (value) => `${value.toLocaleString('en')} B`;
const kibibytes = (value) => `${(value / 1024).toFixed(1)} KiB`;

/** The RESULTS.md section of the transport benchmark. */
export function sseSection({ results, bundle }) {
  const { oneClient, resume, concurrent } = results;
  const { parts } = bundle;
  const table = markdownTable(
    {
      measure: 'measure',
      ours: '`createChatSseResponse` → `readChatStream`',
      floor: 'floor: raw socket → fetch + eventsource-parser + JSON.parse',
      goal: 'goal',
      met: 'met',
    },
    [
      {
        measure: `frames per second to one client (${oneClient.frames.toLocaleString('en')} frames)`,
        ours: rate(oneClient.ours),
        floor: rate(oneClient.floor),
      },
      {
        measure: `resume after a drop: ${resume.frames.toLocaleString('en')} frames from cursor 0`,
        ours: milliseconds(resume.milliseconds),
      },
      {
        measure: `${concurrent.streams.toLocaleString('en')} concurrent streams on one server process: memory per connection`,
        ours: `${kibibytes(concurrent.heapPerStream)} heap, ${kibibytes(concurrent.rssPerStream)} RSS`,
      },
      {
        measure: `the same streams, append → client delay over ${concurrent.rounds} rounds (p50 / p99 / max)`,
        ours: `${milliseconds(concurrent.p50)} / ${milliseconds(concurrent.p99)} / ${milliseconds(concurrent.max)}`,
      },
      {
        measure:
          'browser client bundle: core parse + reducer + `readChatStream` + `followChatTurn` + `parseChatMessageEvent`, esbuild min + gzip -9',
        ours: `${bundle.gzippedBytes.toLocaleString('en')} B gzipped`,
        goal: `≤ ${GOALS.clientGzippedBytes.toLocaleString('en')} B`,
        met: bundle.gzippedBytes <= GOALS.clientGzippedBytes ? 'yes' : '**no**',
      },
    ],
  );
  return `## Transport: SSE over loopback (issue 16)

${table}

- The server is a Node \`http\` server answering with \`createChatSseResponse\` through \`writeChatSseResponse\`, over the
  testkit's in-memory event log, so the transport's own cost is what is timed; the client is \`readChatStream\` with the
  platform \`fetch\`. The floor is the same frames written straight to the socket, read with \`fetch\`, \`eventsource-parser\`
  and \`JSON.parse\`: no log, no resume, no strict parse. Medians of the rounds; wall time, since both wait on sockets.
- Concurrent streams: a server in a child process holds ${concurrent.streams.toLocaleString('en')} open resumable streams from this
  process; memory is the server's \`heapUsed\` and RSS growth after a GC, divided by the streams. Each round appends one
  delta to every turn, stamped with \`performance.timeOrigin + performance.now()\`; the delay is to its arrival at the client.
- The bundle: the strict parser alone is ${bytes(parts.parserGzippedBytes)} gzipped and core's parse and reducer together
  ${bytes(parts.coreGzippedBytes)}; the reader, the folder and \`eventsource-parser\` add ${bytes(bundle.gzippedBytes - parts.coreGzippedBytes)}
  (zod is ${bytes(bundle.zodMinifiedBytes)} of the minified bundle).
  The goal ${bundle.gzippedBytes <= GOALS.clientGzippedBytes ? 'is met' : `is missed by ${bytes(bundle.gzippedBytes - GOALS.clientGzippedBytes)}`} (KB in the goals is 1,000 bytes).
`;
}

if (process.argv.includes('--sse-server')) await runServerChild();
else if (process.argv[1] === SELF) {
  const { median } = await import('./harness.mjs');
  const results = await measureSse({ median });
  console.log(sseSection({ results, bundle: await measureSseClientBundle() }));
}
