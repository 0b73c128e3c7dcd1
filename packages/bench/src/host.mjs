/**
 * The reference host's benchmark (issue 17, "Measure"): `createChatHost` with
 * the scripted agent (no delays) behind a Node `http` server on loopback, in a
 * child process of its own, on PGlite (in memory) and on a throwaway real
 * Postgres server. Clients in this process run whole turns as a v1 client
 * does: `POST /turns`, the events stream through `readChatStream`, the card
 * answered on `POST /cards` when it arrives, until `done`. It measures turns
 * per second, the time from the agent yielding a delta to the client reading
 * it, and how many conversations one host process holds open (a running turn
 * waiting on its card and its stream), with the memory each costs. Every turn
 * is its own conversation, caller and text. Wall time: the work waits on
 * sockets and the database. Nothing is asserted.
 *
 * `node src/host.mjs` runs this section alone and prints it.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { createChatHost, createNodeRequestListener, createScriptedChatAgent } from '@papercusp/chat-protocol-host';
import { createPostgresChatStore, migrateChatStore, pgDatabase, pgliteDatabase } from '@papercusp/chat-protocol-postgres';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { readChatStream } from '@papercusp/chat-protocol-sse';
import { DefaultChatTransport, readUIMessageStream } from 'ai';
import pg from 'pg';
import { startPostgresCluster } from '../../../test-support/postgres-cluster.mjs';
import { markdownTable } from './markdown-table.mjs';
import { ask } from './sse.mjs';

const CHILD_FLAG = '--host-server';
const SELF = fileURLToPath(import.meta.url);
const SETTINGS = {
  /** Each throughput cell runs turns for at least this long (after a warm-up turn per client). */
  throughputMilliseconds: Number(process.env.HOST_BENCH_MS ?? 3_000),
  concurrency: [1, 8],
  /** Conversations held open at once: a turn waiting for its card, and its stream. */
  openConversations: Number(process.env.HOST_BENCH_OPEN ?? 300),
  poolSize: 10,
};

const now = () => performance.timeOrigin + performance.now();
const progress = (line) => process.stderr.write(`bench/host: ${line}\n`);

// Caller `bench_<n>` (token `token_<n>`) owns the conversations `c_bench_<n>_…`: one caller per conversation, so the per-caller stream limit never binds.
export const callerOf = (token) => {
  const match = /^Bearer token_(\d+)$/.exec(token ?? '');
  if (match === null) return null;
  return { callerId: `bench_${match[1]}`, principalId: `user_${match[1]}`, tenantId: 'bench', customerId: null, publicOwnerId: null };
};
const owns = (caller, conversationId) => caller !== null && conversationId.startsWith(`c_${caller.callerId}_`);

/** The scripted agent, stamping the moment it yields each delta (by turn and delta index). */
function stampingAgent(stamps) {
  const inner = createScriptedChatAgent();
  return {
    tools: inner.tools,
    async *run(turn, context) {
      const steps = inner.run(turn, context);
      let feedback;
      let index = 0;
      for (;;) {
        const next = await steps.next(feedback);
        if (next.done) return;
        if (next.value.type === 'delta') stamps.set(`${turn.turnId}:${index++}`, now());
        feedback = yield next.value;
      }
    },
  };
}

/** The store on `backend` (PGlite in memory, or a `pg` Pool of `poolSize` on a server), migrated, with the bench's grants. */
export async function openBenchStore(backend, poolSize) {
  let database;
  let close;
  if (backend.kind === 'pglite') {
    const db = await PGlite.create();
    database = pgliteDatabase(db);
    close = () => db.close();
  } else {
    const pool = new pg.Pool({ connectionString: backend.url, max: poolSize });
    database = pgDatabase(pool);
    close = () => pool.end();
  }
  const migrated = await migrateChatStore(database);
  if (!migrated.ok) throw new Error(`host bench: migration failed: ${migrated.code} ${migrated.message}`);
  const store = createPostgresChatStore(database, {
    authorizeConversation: (_query, { caller, conversationId }) => owns(caller, conversationId),
    authorizeDispatch: (_query, { caller, conversationId }) => owns(caller, conversationId),
    interactionAuthority: (_query, { caller, conversationId }) => {
      if (!owns(caller, conversationId)) return null;
      const { principalId, tenantId, customerId, publicOwnerId } = caller;
      return { principalId, tenantId, customerId, publicOwnerId };
    },
  });
  return { store, close };
}

/** The child: the host on `backend` behind node:http, answering memory, stamp and stop requests over IPC. */
async function runHostChild(backend) {
  const { store, close } = await openBenchStore(backend, SETTINGS.poolSize);
  const stamps = new Map();
  const handler = createChatHost({
    store,
    agent: stampingAgent(stamps),
    authenticate: (request) => callerOf(request.headers.get('authorization')),
    heartbeatMs: 600_000,
  });
  const server = createServer(createNodeRequestListener(handler));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', async (message) => {
    if (message.type === 'memory') {
      globalThis.gc?.();
      const { heapUsed, rss } = process.memoryUsage();
      process.send({ type: 'memory', heapUsed, rss });
    } else if (message.type === 'stamps') {
      process.send({ type: 'stamps', stamps: [...stamps] });
      stamps.clear();
    } else if (message.type === 'stop') {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await close();
      process.exit(0);
    }
  });
  process.send({ type: 'ready', port: server.address().port });
}

let sequence = 0;
/** A fresh conversation, caller and text: every turn of the bench is its own input. */
function nextInput() {
  sequence += 1;
  return {
    token: `token_${sequence}`,
    conversationId: `c_bench_${sequence}_conversation`,
    text: `Refund order ${1000 + sequence}: the parcel ${sequence.toString(36)} arrived damaged`,
  };
}

/** A JSON POST as the bench's caller `token`; an answer of 300 or more throws. */
export async function post(base, path, token, body, headers = {}) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * One whole turn as a v1 client runs it. `stopAtCard` leaves it waiting on its
 * card with the stream open (the held-open measure); otherwise it answers the
 * card and reads to `done`, recording each delta's arrival.
 */
async function runTurn(base, arrivals, { stopAtCard = false, signal } = {}) {
  const { token, conversationId, text } = nextInput();
  const clientTurnId = createTurnId();
  const prefix = `/v1/conversations/${conversationId}`;
  const { turnId } = await post(base, `${prefix}/turns`, token, { clientTurnId, text }, { 'Idempotency-Key': clientTurnId });
  let deltas = 0;
  let status;
  let answer;
  const url = `${base}${prefix}/turns/${turnId}/events`;
  for await (const item of readChatStream({ url, headers: { authorization: `Bearer ${token}` }, ...(signal ? { signal } : {}) })) {
    if (item.type !== 'envelope') continue;
    const { event } = item.envelope;
    if (event.type === 'delta') arrivals.set(`${turnId}:${deltas++}`, now());
    if (event.type === 'card') {
      if (stopAtCard) {
        arrivals.waiting?.({ base, prefix, token, correlationId: event.card.correlationId });
        continue;
      }
      const { correlationId } = event.card;
      answer = post(base, `${prefix}/cards/${correlationId}`, token, { action: 'submit', correlationId, value: { confirmed: true } });
    }
    if (event.type === 'done') status = event.status;
  }
  await answer;
  if (!stopAtCard && status !== 'completed') throw new Error(`turn ${turnId} ended ${status}`);
  return deltas;
}

/** One whole turn as the AI SDK's own client runs it against the host's AI SDK route (`useChat`'s transport and reader). */
async function runAiSdkTurn(base) {
  const { token, conversationId, text } = nextInput();
  const headers = { authorization: `Bearer ${token}` };
  const transport = new DefaultChatTransport({ api: `${base}/v1/ai-sdk/chat`, headers });
  const messages = [{ id: `msg_${sequence}`, role: 'user', parts: [{ type: 'text', text }] }];
  const stream = await transport.sendMessages({
    chatId: conversationId,
    messages,
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });
  let answer;
  let last;
  for await (const message of readUIMessageStream({ stream })) {
    last = message;
    const card = answer === undefined ? message.parts.find((part) => part.type === 'data-card') : undefined;
    if (card !== undefined) {
      const { correlationId } = card.data;
      answer = post(base, `/v1/conversations/${conversationId}/cards/${correlationId}`, token, {
        action: 'submit',
        correlationId,
        value: { confirmed: true },
      });
    }
  }
  await answer;
  if (last?.parts.at(-1)?.text !== 'Ticket closed.') throw new Error(`the AI SDK turn of ${conversationId} did not end as scripted`);
}

async function startChild(backend) {
  const child = fork(SELF, [CHILD_FLAG, JSON.stringify(backend)], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`host bench child exited ${code}`)));
  });
  return { child, base: `http://127.0.0.1:${ready.port}` };
}

async function stopChild(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ type: 'stop' });
  await exited;
}

/** `concurrency` clients running whole turns back to back for `milliseconds` (after one warm-up turn each): turns per second. */
export async function turnsPerSecond(
  base,
  concurrency,
  run = (arrivals) => runTurn(base, arrivals),
  milliseconds = SETTINGS.throughputMilliseconds,
) {
  const arrivals = new Map();
  const [deltasPerTurn] = await Promise.all(Array.from({ length: concurrency }, () => run(arrivals)));
  const startedAt = now();
  let turns = 0;
  const clients = Array.from({ length: concurrency }, async () => {
    while (now() - startedAt < milliseconds) {
      await run(arrivals);
      turns += 1;
    }
  });
  await Promise.all(clients);
  return { turns, rate: turns / ((now() - startedAt) / 1000), arrivals, deltasPerTurn };
}

/** Delays from the agent's stamp to the client's arrival for every delta both sides saw. */
export function deltaDelays(stamps, arrivals) {
  const delays = [];
  for (const [key, stamped] of stamps) {
    const arrived = arrivals.get(key);
    if (arrived !== undefined) delays.push(arrived - stamped);
  }
  return delays.sort((left, right) => left - right);
}

/** The `share` quantile of an ascending list. */
export const quantile = (sorted, share) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];

/** Opens `count` conversations whose turns wait on their cards with their streams open; then answers them all. */
async function heldOpen(child, base, count) {
  const before = await ask(child, { type: 'memory' }, 'memory');
  const waiting = [];
  const arrivals = new Map();
  arrivals.waiting = (card) => waiting.push(card);
  const turns = [];
  // Opened a few at a time, as conversations arrive, not all in one burst.
  for (let index = 0; index < count; index += 1) {
    turns.push(runTurn(base, arrivals, { stopAtCard: true }));
    if (index % 16 === 15) while (waiting.length < index - 32) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  while (waiting.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
  const open = await ask(child, { type: 'memory' }, 'memory');
  const answeredAt = now();
  await Promise.all(
    waiting.map(({ base: origin, prefix, token, correlationId }) =>
      post(origin, `${prefix}/cards/${correlationId}`, token, { action: 'submit', correlationId, value: { confirmed: true } }),
    ),
  );
  await Promise.all(turns);
  return {
    count,
    heapPerConversation: (open.heapUsed - before.heapUsed) / count,
    rssPerConversation: (open.rss - before.rss) / count,
    finishMilliseconds: now() - answeredAt,
  };
}

async function measureBackend(name, backend) {
  progress(`${name}: starting the host`);
  const { child, base } = await startChild(backend);
  try {
    const throughput = {};
    const delay = {};
    let deltasPerTurn = 0;
    for (const concurrency of SETTINGS.concurrency) {
      progress(`${name}: turns per second, ${concurrency} concurrent`);
      const cell = await turnsPerSecond(base, concurrency);
      throughput[concurrency] = cell.rate;
      deltasPerTurn = cell.deltasPerTurn;
      const { stamps } = await ask(child, { type: 'stamps' }, 'stamps');
      const delays = deltaDelays(new Map(stamps), cell.arrivals);
      delay[concurrency] = { deltas: delays.length, p50: quantile(delays, 0.5), p99: quantile(delays, 0.99), max: delays.at(-1) };
    }
    progress(`${name}: turns per second through the AI SDK route, 8 concurrent`);
    const aiSdk = (await turnsPerSecond(base, 8, () => runAiSdkTurn(base))).rate;
    await ask(child, { type: 'stamps' }, 'stamps');
    progress(`${name}: ${SETTINGS.openConversations} conversations held open`);
    const open = await heldOpen(child, base, SETTINGS.openConversations);
    return {
      name,
      throughput,
      deltasPerTurn,
      delay,
      aiSdk,
      open,
    };
  } finally {
    await stopChild(child);
  }
}

/** Every measure of the host, on PGlite and on a throwaway Postgres server (stopped in a `finally`). */
export async function measureHost() {
  const loadAtStart = loadavg()[0];
  const startedAt = performance.now();
  const backends = [await measureBackend('PGlite in memory', { kind: 'pglite' })];
  let cluster;
  try {
    progress('starting a throwaway Postgres server');
    cluster = await startPostgresCluster();
    backends.push(await measureBackend('Postgres server, `pg` Pool', { kind: 'postgres', url: cluster.url }));
  } finally {
    await cluster?.destroy();
  }
  return { loadAtStart, cores: cpus().length, seconds: (performance.now() - startedAt) / 1000, backends };
}

/** A rate per second, with one decimal below 100. */
export const rate = (value) => `${value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en')}/s`;
/** Milliseconds, with two decimals below 10. */
export const milliseconds = (value) => `${value < 10 ? value.toFixed(2) : Math.round(value).toLocaleString('en')} ms`;
/** A delay cell: p50 / p99 / max and how many deltas. */
export const delayCell = ({ p50, p99, max, deltas }) =>
  `${milliseconds(p50)} / ${milliseconds(p99)} / ${milliseconds(max)} (${deltas.toLocaleString('en')} deltas)`;
const kibibytes = (value) => `${(value / 1024).toFixed(1)} KiB`;

/** The RESULTS.md section of the host benchmark. */
export function hostSection(results) {
  const table = markdownTable(
    {
      backend: 'store',
      c1: 'turns/s, 1 client',
      c8: 'turns/s, 8 concurrent clients',
      aiSdk: '8 clients on `POST /v1/ai-sdk/chat`',
      delay1: 'agent delta → client p50 / p99 / max, 1 client',
      delay8: '8 clients',
      open: `${SETTINGS.openConversations} conversations held open: memory per conversation`,
      finish: 'then all answered: until every turn ended',
    },
    results.backends.map((backend) => ({
      backend: backend.name,
      c1: rate(backend.throughput[1]),
      c8: rate(backend.throughput[8]),
      aiSdk: rate(backend.aiSdk),
      delay1: delayCell(backend.delay[1]),
      delay8: delayCell(backend.delay[8]),
      open: `${kibibytes(backend.open.heapPerConversation)} heap, ${kibibytes(backend.open.rssPerConversation)} RSS`,
      finish: milliseconds(backend.open.finishMilliseconds),
    })),
  );
  const loadNote = results.loadAtStart > results.cores ? ' (more than the cores: expect lower rates)' : '';
  return `## Reference host: turns over HTTP on loopback (issue 17)

One-minute load average at the start of this section ${results.loadAtStart.toFixed(2)}${loadNote}; it took ${results.seconds.toFixed(1)} s.

${table}

- The host is \`createChatHost\` with \`createScriptedChatAgent()\` (no delays: reasoning, ${results.backends[0]?.deltasPerTurn} deltas of
  8 characters with a report block among them, the refund tool with its external effect through \`TurnRecovery\`, a
  confirm card)
  behind a Node \`http\` server (\`createNodeRequestListener\`) in a child process of its own, on
  \`createPostgresChatStore\` over PGlite in memory or a throwaway Postgres server (a \`pg\` Pool of ${SETTINGS.poolSize}).
  Each client in this process runs whole turns back to back as a v1 client does: \`POST /turns\` with its
  \`Idempotency-Key\`, the events through \`readChatStream\`, \`POST /cards\` when the card arrives, until \`done\`. Every
  turn is a new conversation of a new caller with its own text. At least ${SETTINGS.throughputMilliseconds / 1000} s per cell, after one
  warm-up turn per client.
- The AI SDK column runs the same turns through the host's AI SDK route with the \`ai\` package's own client:
  \`DefaultChatTransport.sendMessages\` and \`readUIMessageStream\` (what \`useChat\` runs), the card answered on
  \`POST /cards\` when its \`data-card\` part arrives: the v1 stream re-encoded by \`createAiSdkEncoder\`, and the client's
  schema validation and message rebuilding per chunk.
- Delta → client: the agent's yield of each delta is stamped in the host process and its arrival at the client in
  this one (\`performance.timeOrigin + performance.now()\` on both sides), over every delta of each throughput cell;
  between the two, the host appends the frame to the store's log, the log wakes the stream, and the client parses it.
- Held open: ${SETTINGS.openConversations} conversations, each a running turn waiting on its card with its event stream
  open, one caller each (opened about 32 at a time); memory is the host process's \`heapUsed\` and RSS growth after a
  GC, divided by them. Then every card is answered at once and the time is until every stream read its \`done\`. The
  host bounds streams per caller (8 by default), not conversations: what it holds is the process's memory and file
  descriptors divided by these figures.
- A card answer wakes the waiting run in the host process at once (the run arms its wakeup before it reads the card);
  the card poll (1 s, the default) only matters for answers taken by another process, which this bench has none of.
`;
}

if (process.argv.includes(CHILD_FLAG)) await runHostChild(JSON.parse(process.argv[process.argv.indexOf(CHILD_FLAG) + 1]));
else if (process.argv[1] === SELF) console.log(hostSection(await measureHost()));
