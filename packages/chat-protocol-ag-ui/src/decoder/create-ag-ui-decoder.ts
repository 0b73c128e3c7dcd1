/**
 * AG-UI 1.0 events → strict v1 envelopes. The host's context allocates every
 * envelope's identity (turn id, event id, seq, time), as in the legacy
 * adapter; the decoder only translates, buffers AG-UI's brackets and
 * re-parses each envelope with core's strict parser. It never invents an
 * outcome: a tool result that states no success or failure is refused unless
 * the host maps it explicitly. An event with no v1 meaning, or one core's
 * reducer could not place after what the decoder already emitted, is refused
 * and counted, and takes no identity, so the host's numbering has no gap.
 *
 * This module owns the pipeline and its records (the open run, the chunk lanes, the state history, the reducer view,
 * the refusal counts): an event is read once as plain data, routed to its lane or its translator, emitted, and its
 * step committed. What each event means is its translator's: `run-brackets.ts`, `message-brackets.ts`,
 * `tool-calls.ts`, `state-patches.ts`, `custom-events.ts`, `chunk-lanes.ts`.
 */
import { type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { readPlainData } from '../read-plain-data.js';
import { chunkKind, closeLaneBefore, createChunkLanes, decodeChunk, deliver, type LaneDecoding } from './chunk-lanes.js';
import { customEvent } from './custom-events.js';
import type { AgUiDecoder, AgUiDecoderContext, DecodeAgUiEventRefusalCode, DecodeAgUiEventResult } from './decoder-types.js';
import { emitEnvelopes } from './emit-envelopes.js';
import { NO_V1_MEANING, READ_FIELDS, isRecord, unreadFields, type Fields } from './event-vocabulary.js';
import { readDecoderHost, type DecoderHost } from './host-context.js';
import {
  reasoningContent,
  reasoningEnd,
  reasoningStart,
  textMessageContent,
  textMessageEnd,
  textMessageStart,
} from './message-brackets.js';
import { createReducerView, type ReducerView } from './reducer-view.js';
import { observeSubagent, runError, runFinished, runStarted, type OpenRun, type RunSlot } from './run-brackets.js';
import { createStateHistory, stateDelta, stateSnapshot, type StateHistory } from './state-patches.js';
import { toolCallArgs, toolCallEnd, toolCallResult, toolCallStart } from './tool-calls.js';
import type { Step, TranslatedStep } from './translated-step.js';

// What one decoder holds: the host's context as read once, and the records its translators change.
interface DecoderRecords<Envelope> {
  readonly host: DecoderHost<Envelope>;
  readonly view: ReducerView;
  readonly slot: RunSlot;
  readonly state: StateHistory;
}

/**
 * Creates a decoder from AG-UI 1.0 events to v1 envelopes (DESIGN §12).
 *
 * Guarantees: never throws on its input (each event is read once, as plain data: a getter, a Proxy or a class
 * instance anywhere in it is `invalid-event`) and never mutates it; every envelope it returns passed the strict
 * parser with the identity the host's `identify` allocated, and the host is asked for an identity only for an
 * envelope it returns (a refused event takes no seq); core's reducer applies every envelope it returns, in order,
 * after those it returned before (what it could not place is refused with the reducer's code, and a tool result
 * for a call of another run is `earlier-run-tool-call`); brackets (`*_START`/`*_END`) yield no envelope (a user
 * message yields its `user_input` at its end, a tool call its `tool_call` at `TOOL_CALL_END`, and a call whose
 * arguments are not JSON is `invalid-tool-arguments` and is never made); chunk events decode as the brackets
 * `@ag-ui/client`'s `transformChunks` expands them to; a `TOOL_CALL_RESULT` whose status is neither carried by
 * this package's encoder nor given by the host's `toolResultStatus` is `unknown-tool-status`, never a success; an
 * AG-UI event with no v1 meaning is `unsupported-event`; a `RUN_FINISHED` while a message, tool call or announced
 * subagent of the run is open is `unclosed-brackets` (the run stays open); a `RUN_FINISHED` the encoder marked
 * (`metadata.papercusp.turnEnded: false`) closes the run and ends no turn; an interrupt that names no open card the
 * run asked ends the turn `interrupted`, never `completed`, and is reported lost; every refusal is counted.
 */
export function createAgUiDecoder<Envelope = ChatEventEnvelope>(context: AgUiDecoderContext<Envelope>): AgUiDecoder<Envelope> {
  // The context is read once: a getter cannot answer one way now and another later. Its callbacks keep it as `this`.
  const records: DecoderRecords<Envelope> = {
    host: readDecoderHost(context),
    view: createReducerView(),
    slot: { current: undefined },
    state: createStateHistory(),
  };
  const counts: Partial<Record<DecodeAgUiEventRefusalCode, number>> = {};
  const lanes = createChunkLanes<Envelope>();
  const decoding: LaneDecoding<Envelope> = { decodeOne: (input) => decodeOne(records, input), count };

  function count(code: DecodeAgUiEventRefusalCode): void {
    counts[code] = (counts[code] ?? 0) + 1;
  }

  function decode(input: unknown): DecodeAgUiEventResult<Envelope> {
    // Read once: no getter of the input runs, no Proxy trap runs twice, and nothing inherited is looked up later.
    const read = readPlainData(input);
    const result =
      read === undefined
        ? refuse('invalid-event', 'an AG-UI event is plain JSON data (no getters, Proxies or class instances)')
        : decodeEvent(read.value);
    if (!result.ok) count(result.code);
    return result;
  }

  function decodeEvent(input: unknown): DecodeAgUiEventResult<Envelope> {
    if (!isRecord(input) || typeof input['type'] !== 'string') return decodeOne(records, input);
    const kind = chunkKind(input['type']);
    if (kind !== undefined) return deliver(lanes, decodeChunk(lanes, kind, input, records.slot, decoding));
    closeLaneBefore(lanes, input['type'], input['timestamp'], decoding);
    return deliver(lanes, decodeOne(records, input));
  }

  return { decode, refusals: () => ({ ...counts }) };
}

// One AG-UI event that is not a chunk: checked against the vocabulary, translated inside its run, emitted, committed.
function decodeOne<Envelope>(records: DecoderRecords<Envelope>, input: unknown): DecodeAgUiEventResult<Envelope> {
  if (!isRecord(input) || typeof input['type'] !== 'string')
    return refuse('invalid-event', 'an AG-UI event is an object with a string type');
  const type = input['type'];
  if (NO_V1_MEANING.has(type)) {
    observeSubagent(records.slot, type, input);
    return refuse('unsupported-event', `AG-UI ${type} has no v1 meaning`);
  }
  const read = READ_FIELDS.get(type);
  if (read === undefined) return refuse('invalid-event', `${type} is not an AG-UI 1.0 event type`);
  let step: TranslatedStep;
  let target: OpenRun;
  if (type === 'RUN_STARTED') {
    const started = runStarted(input, records.host.conversationId, records.view, records.slot);
    if (!started.ok) return started;
    step = started;
    target = started.opens;
  } else {
    const run = records.slot.current;
    if (run === undefined) return refuse('outside-run', `${type} arrived outside an AG-UI run`);
    const translated = translate(records, type, input, run);
    if (!translated.ok) return translated;
    step = translated;
    target = run;
  }
  const envelopes = emitEnvelopes(records.host, records.view, target.runId, step.events, input['timestamp']);
  if (!Array.isArray(envelopes)) return envelopes;
  step.commit?.();
  return { ok: true, envelopes, lost: [...unreadFields(input, read), ...step.lost] };
}

// Every event but RUN_STARTED, inside the open run.
function translate<Envelope>(records: DecoderRecords<Envelope>, type: string, input: Fields, current: OpenRun): Step {
  switch (type) {
    case 'RUN_FINISHED':
      return runFinished(input, current, records.view, records.slot);
    case 'RUN_ERROR':
      return runError(input, records.slot);
    case 'TEXT_MESSAGE_START':
      return textMessageStart(input, current);
    case 'TEXT_MESSAGE_CONTENT':
      return textMessageContent(input, current);
    case 'TEXT_MESSAGE_END':
      return textMessageEnd(input, current);
    case 'REASONING_START':
    case 'REASONING_MESSAGE_START':
      return reasoningStart(type, input, current);
    case 'REASONING_MESSAGE_CONTENT':
      return reasoningContent(input, current);
    case 'REASONING_MESSAGE_END':
      return { ok: true, events: [], lost: [] };
    case 'REASONING_END':
      return reasoningEnd(input, current);
    case 'TOOL_CALL_START':
      return toolCallStart(input, current, records.view);
    case 'TOOL_CALL_ARGS':
      return toolCallArgs(input, current);
    case 'TOOL_CALL_END':
      return toolCallEnd(input, current);
    case 'TOOL_CALL_RESULT':
      return toolCallResult(input, current, records.view, records.host);
    case 'STATE_SNAPSHOT':
      return stateSnapshot(records.state, input);
    case 'STATE_DELTA':
      return stateDelta(records.state, input);
    default:
      return customEvent(input);
  }
}
