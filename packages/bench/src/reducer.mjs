/**
 * The reducer benchmark (issue #12, "a reducer that does not slow down"): what
 * one `applyChatEvent` of a delta costs after 1, 1,000 and 10,000 earlier turns,
 * beside `parseChatEnvelope` of the same envelopes, and the live memory a state
 * holds per applied event (10,000 events in one turn; 100 turns of 100). It has
 * its own timing loop: a stream must continue from the state it reached (the
 * harness would replay a run from one base state, which measures branching).
 * Run with `node --expose-gc` (as `pnpm bench` does); the memory is measured in a
 * child process of its own (`node --expose-gc reducer.mjs memory`).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { applyChatEvent, createChatState, parseChatEnvelope } from '@papercusp/chat-protocol-core';

const CONVERSATION_ID = 'conv_01HZX3K8M2';
const OCCURRED_AT = '2026-11-29T12:34:56.789Z';
const TEXT = 'The quick brown fox jumps over the lazy dog. ';
const EARLIER_TURNS = [1, 1_000, 10_000];
const EVENTS_PER_EARLIER_TURN = 5;
const EVENTS_PER_ROUND = 2_000;
const WARMUP_ROUNDS = 5;
const ROUNDS = 31;
const GOALS = { versusOneTurn: 1.2, versusParse: 1.0, liveBytesBeyondContent: 120 };

const collectGarbage = typeof globalThis.gc === 'function' ? globalThis.gc : undefined;

/** A delta envelope's JSON text, as a producer writes it; ids are padded so every one is as long. */
function deltaText(turn, seq, eventNumber, text = TEXT) {
  const eventId = `evt_${String(eventNumber).padStart(10, '0')}`;
  return `{"schemaVersion":1,"conversationId":"${CONVERSATION_ID}","turnId":"turn_${String(turn).padStart(9, '0')}","eventId":"${eventId}","seq":${seq},"occurredAt":"${OCCURRED_AT}","event":{"type":"delta","text":${JSON.stringify(text)}}}`;
}

function doneText(turn, seq, eventNumber) {
  const eventId = `evt_${String(eventNumber).padStart(10, '0')}`;
  return `{"schemaVersion":1,"conversationId":"${CONVERSATION_ID}","turnId":"turn_${String(turn).padStart(9, '0')}","eventId":"${eventId}","seq":${seq},"occurredAt":"${OCCURRED_AT}","event":{"type":"done","status":"completed"}}`;
}

function parsed(text) {
  const result = parseChatEnvelope(text);
  if (!result.ok) throw new Error(`reducer fixture refused: ${result.code} ${result.message}`);
  return result.value;
}

function apply(state, envelope) {
  const result = applyChatEvent(state, envelope);
  if (!result.ok || result.outcome !== 'applied') throw new Error(`reducer refused its own stream: ${JSON.stringify(result)}`);
  return result.state;
}

/** A conversation that goes on: `earlier` completed turns, then one running turn that every round extends. */
function createStream(earlier) {
  let state = createChatState(CONVERSATION_ID);
  let eventNumber = 0;
  for (let turn = 1; turn <= earlier; turn += 1) {
    for (let seq = 1; seq < EVENTS_PER_EARLIER_TURN; seq += 1) state = apply(state, parsed(deltaText(turn, seq, ++eventNumber)));
    state = apply(state, parsed(doneText(turn, EVENTS_PER_EARLIER_TURN, ++eventNumber)));
  }
  const running = earlier + 1;
  let seq = 0;
  return {
    earlier,
    /** The next round's envelopes, as text and parsed (outside any timing). */
    next(count) {
      const texts = [];
      for (let index = 0; index < count; index += 1) texts.push(deltaText(running, ++seq, ++eventNumber));
      return { texts, envelopes: texts.map(parsed) };
    },
    applyAll(envelopes) {
      let current = state;
      for (const envelope of envelopes) current = apply(current, envelope);
      state = current;
    },
    get state() {
      return state;
    },
  };
}

function timed(work) {
  collectGarbage?.();
  const start = performance.now();
  work();
  return performance.now() - start;
}

function parseAll(texts) {
  let sink;
  for (const text of texts) sink = parseChatEnvelope(text);
  if (sink?.ok !== true) throw new Error('parse refused its own input');
}

/**
 * Per-event time of a delta applied to a conversation with `EARLIER_TURNS`
 * earlier turns, and of parsing the same envelopes: each round extends every
 * stream once (order rotated per round) and parses the same texts right after.
 */
function measureCost(median) {
  const streams = EARLIER_TURNS.map(createStream);
  const samples = new Map(streams.map((stream) => [stream.earlier, { apply: [], parse: [] }]));
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round += 1) {
    for (let offset = 0; offset < streams.length; offset += 1) {
      const stream = streams[(round + offset) % streams.length];
      const { texts, envelopes } = stream.next(EVENTS_PER_ROUND);
      const applyMilliseconds = timed(() => stream.applyAll(envelopes));
      const parseMilliseconds = timed(() => parseAll(texts));
      if (round >= WARMUP_ROUNDS) {
        const entry = samples.get(stream.earlier);
        entry.apply.push((applyMilliseconds * 1e6) / EVENTS_PER_ROUND);
        entry.parse.push((parseMilliseconds * 1e6) / EVENTS_PER_ROUND);
      }
    }
  }
  const ratio = (numerator, denominator) => median(numerator.map((value, index) => value / denominator[index]));
  const one = samples.get(EARLIER_TURNS[0]);
  return EARLIER_TURNS.map((earlier) => {
    const entry = samples.get(earlier);
    return {
      earlier,
      applyNanoseconds: median(entry.apply),
      parseNanoseconds: median(entry.parse),
      versusOneTurn: ratio(entry.apply, one.apply),
      versusParse: ratio(entry.apply, entry.parse),
    };
  });
}

const liveBytes = () => {
  collectGarbage();
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

/**
 * Live bytes a state holds per applied event: the heap (and array buffers)
 * after a collection, before and after applying `turns` turns of `perTurn`
 * events (deltas of a short text, then `done`), parsed from text one at a time so
 * nothing but the state keeps them. "Content" is what the state's JSON holds
 * per event (text and memory line); the goal is about what the heap adds to it.
 */
function measureMemory(turns, perTurn) {
  const shortText = 'a token ';
  // A reducer may keep an index of the state it produced last: move it to a throwaway conversation first.
  apply(createChatState('conv_throwaway'), parsed(deltaText(1, 1, 1).replace(CONVERSATION_ID, 'conv_throwaway')));
  const before = liveBytes();
  let state = createChatState(CONVERSATION_ID);
  let eventNumber = 0;
  for (let turn = 1; turn <= turns; turn += 1) {
    for (let seq = 1; seq < perTurn; seq += 1) state = apply(state, parsed(deltaText(turn, seq, ++eventNumber, shortText)));
    state = apply(state, parsed(doneText(turn, perTurn, ++eventNumber)));
  }
  const after = liveBytes();
  const events = turns * perTurn;
  const perEvent = (after - before) / events;
  const content = Buffer.byteLength(JSON.stringify(state)) / events;
  return { turns, perTurn, events, perEvent, content, beyond: perEvent - content };
}

// The memory is measured in a fresh process, so nothing the other benchmarks left behind is freed during it.
function measureMemoryApart() {
  const output = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), 'memory'], { encoding: 'utf8' });
  return JSON.parse(output);
}

if (process.argv[2] === 'memory' && process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(JSON.stringify([measureMemory(1, 10_000), measureMemory(100, 100)]));
}

/** Runs the reducer measures and returns the markdown section for RESULTS.md. */
export function reducerResults({ median }) {
  const memory = measureMemoryApart();
  const cost = measureCost(median);
  const times = (value) => `${value.toFixed(2)}×`;
  const verdict = (met) => (met ? 'yes' : '**no**');
  const rows = cost.map(
    (entry) =>
      `| **applyChatEvent** of a delta after ${entry.earlier.toLocaleString('en')} earlier turn${entry.earlier === 1 ? '' : 's'} | ${Math.round(entry.applyNanoseconds)} ns | ${Math.round(entry.parseNanoseconds)} ns | ${times(entry.versusParse)} | ${times(entry.versusOneTurn)} | ≤ ${times(GOALS.versusParse)} its parse${entry.earlier === 1 ? '' : `, ≤ ${times(GOALS.versusOneTurn)} the 1-turn cost`} | ${verdict(entry.versusParse <= GOALS.versusParse && entry.versusOneTurn <= GOALS.versusOneTurn)} |`,
  );
  const memoryRows = memory.map(
    (entry) =>
      `| ${entry.events.toLocaleString('en')} events, ${entry.turns === 1 ? 'one turn' : `${entry.turns} turns of ${entry.perTurn}`} | ${Math.round(entry.perEvent)} B | ${Math.round(entry.content)} B | ${Math.round(entry.beyond)} B | ≤ ${GOALS.liveBytesBeyondContent} B beyond content | ${verdict(entry.beyond <= GOALS.liveBytesBeyondContent)} |`,
  );
  const memoryTable = `| state | live bytes per event | content per event (its JSON) | beyond content | goal | met |
| --- | --- | --- | --- | --- | --- |
${memoryRows.join('\n')}`;
  return `## Reducer: cost per event and live memory (issue #12)

| contender | median time per event | \`parseChatEnvelope\` of the same envelopes | × its parse | × the 1-turn cost | goal | met |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

- Each conversation has that many completed turns of ${EVENTS_PER_EARLIER_TURN} events, then one running turn that every round
  extends by ${EVENTS_PER_ROUND.toLocaleString('en')} already parsed delta envelopes (${TEXT.length}-character text): a stream that goes on, so
  every event is applied to the state the previous one returned. Right after, the same ${EVENTS_PER_ROUND.toLocaleString('en')} JSON texts are
  parsed. ${ROUNDS} rounds after ${WARMUP_ROUNDS} of warm-up, the three conversations in rotated order, a collection before each
  timed block; the ratios are medians of per-round ratios.

${memoryTable}

- Live bytes, in a fresh \`node --expose-gc\` process: \`heapUsed + arrayBuffers\` after two forced collections,
  before and after building the state from envelopes parsed one at a time (deltas of an 8-character text, each
  turn ending with \`done\`), divided by the events. Content is the state's JSON per event (the text and the memory line \`<eventId> <digest>\`): what a
  snapshot of it holds. The memory's \`eventLog\` text is written out when read and never kept, so it is not in
  these figures, before or after a \`JSON.stringify(state)\`.
`;
}
