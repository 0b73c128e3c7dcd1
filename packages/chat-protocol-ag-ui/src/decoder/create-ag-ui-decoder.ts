/**
 * AG-UI 1.0 events → strict v1 envelopes. The host's context allocates every
 * envelope's identity (turn id, event id, seq, time), as in the legacy
 * adapter; the decoder only translates, buffers AG-UI's brackets and
 * re-parses each envelope with core's strict parser. It never invents an
 * outcome: a tool result that states no success or failure is refused unless
 * the host maps it explicitly. An event with no v1 meaning, or one core's
 * reducer could not place after what the decoder already emitted, is refused
 * and counted, and takes no identity, so the host's numbering has no gap.
 */
import {
  CHAT_LIMITS,
  DONE_STATUSES,
  TOOL_RESULT_STATUSES,
  parseChatEnvelope,
  readFields,
  refuse,
  type ChatEventEnvelope,
  type ChatEventTypeV1,
  type ChatRefusal,
  type ParseResult,
} from '@papercusp/chat-protocol-core';
import { AG_UI_CUSTOM_EVENT_NAME, AG_UI_METADATA_KEY } from '../ag-ui-event.js';
import type { AgUiLoss } from '../loss.js';
import { applyJsonPatch } from './apply-json-patch.js';
import { readPlainData } from '../read-plain-data.js';
import { createReducerView, type PlacementRefusalCode } from './reducer-view.js';
import { cardResponseFromResumeEntry, readCarried } from '../resume-entries.js';

/** A v1 tool result status. */
type ToolResultStatus = (typeof TOOL_RESULT_STATUSES)[number];

/** What the host is asked for each envelope the decoder builds. */
export interface AgUiEnvelopeRequest {
  /** The AG-UI run the event belongs to. */
  readonly runId: string;
  /** The v1 event type the envelope will carry. */
  readonly type: ChatEventTypeV1;
  /** The AG-UI event's `timestamp` (epoch milliseconds), when it had one. */
  readonly timestamp: number | undefined;
}

/** The identity the host allocates for one envelope: parsers never do. */
export interface AgUiEnvelopeIdentity {
  readonly turnId: string;
  readonly eventId: string;
  readonly seq: number;
  /** RFC 3339 with an offset. */
  readonly occurredAt: string;
}

/** An AG-UI tool result that stated no v1 status, as the host's mapping sees it. */
export interface AgUiToolResultRequest {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: unknown;
  readonly metadata: unknown;
}

/** What {@link createAgUiDecoder} needs from the host; `Envelope` is what its parser returns. */
export interface AgUiDecoderContext<Envelope = ChatEventEnvelope> {
  /** The v1 conversation the stream belongs to; an AG-UI `threadId` must equal it. */
  readonly conversationId: string;
  /** Allocates each envelope's turn id, event id, seq and time. */
  readonly identify: (request: AgUiEnvelopeRequest) => AgUiEnvelopeIdentity;
  /**
   * The host's explicit mapping for a tool result that states no status
   * (every tool result a generic AG-UI producer writes), or `undefined` when
   * it cannot say; without it such a result is `unknown-tool-status`.
   */
  readonly toolResultStatus?: ((request: AgUiToolResultRequest) => ToolResultStatus | undefined) | undefined;
  /**
   * The strict parser every envelope passes: core's `parseChatEnvelope` by
   * default; a product's `createChatCodec(...).parseChatEnvelope` to accept its
   * product events (which the encoder carries in `CUSTOM` events).
   */
  readonly parseChatEnvelope?: ((input: unknown) => ParseResult<Envelope>) | undefined;
}

/** Refusal codes of {@link AgUiDecoder.decode}. */
export type DecodeAgUiEventRefusalCode =
  | 'invalid-event'
  | 'unsupported-event'
  | 'outside-run'
  | 'foreign-thread'
  | 'unknown-message'
  | 'unknown-tool-call'
  | 'invalid-tool-arguments'
  | 'unknown-tool-status'
  | 'unknown-state'
  | 'invalid-patch'
  | 'invalid-envelope'
  | 'unclosed-brackets'
  | PlacementRefusalCode;

/** What one AG-UI event decoded to: zero or more envelopes (brackets yield none), and what was not carried. */
export interface AgUiDecoded<Envelope = ChatEventEnvelope> {
  readonly ok: true;
  readonly envelopes: readonly Envelope[];
  readonly lost: readonly AgUiLoss[];
}

/** Result of {@link AgUiDecoder.decode}. */
export type DecodeAgUiEventResult<Envelope = ChatEventEnvelope> = AgUiDecoded<Envelope> | ChatRefusal<DecodeAgUiEventRefusalCode>;

/** A stateful AG-UI → v1 decoder for one conversation's stream. */
export interface AgUiDecoder<Envelope = ChatEventEnvelope> {
  /**
   * Decodes one AG-UI event (unknown input). Never throws on its input (it is read once, as plain data); an
   * exception of the host's own callbacks propagates.
   */
  decode(event: unknown): DecodeAgUiEventResult<Envelope>;
  /** How many events were refused so far, by code. */
  refusals(): Readonly<Partial<Record<DecodeAgUiEventRefusalCode, number>>>;
}

interface OpenRun {
  readonly runId: string;
  // Each open bracket keeps its opener's subagentRunId: a continuation naming another producer is refused.
  readonly text: Map<string, { readonly role: 'assistant' | 'user'; buffer: string; readonly subagent: unknown }>;
  readonly reasoning: Set<string>;
  readonly calls: Map<string, { readonly name: string; args: string; readonly subagent: unknown }>;
  // Announced subagent invocations still running (their events are refused, but the run cannot finish over them).
  readonly subagents: Set<string>;
}

// AG-UI 1.0's text message roles; another value is not AG-UI.
const TEXT_ROLES = new Set(['assistant', 'user', 'system', 'developer']);
// AG-UI 1.0's RUN_FINISHED outcome types.
const OUTCOME_TYPES = new Set(['success', 'cancelled', 'interrupt']);

type Fields = Readonly<Record<string, unknown>>;
// A translated event; `commit` updates the decoder's state once its envelopes took their identities. A RUN_STARTED
// also names the run it `opens`: its envelopes belong to that run, which is open only once they are made.
interface TranslatedStep {
  readonly ok: true;
  readonly events: readonly Fields[];
  readonly lost: readonly AgUiLoss[];
  readonly commit?: () => void;
}
type Step = TranslatedStep | ChatRefusal<DecodeAgUiEventRefusalCode>;

// v1 events AG-UI has a native event for: a CUSTOM "papercusp.event" never carries them (the encoder never writes
// one), and one that did could end or reorder the turn behind the run's back.
const NATIVE_TYPES = new Set(['user_input', 'delta', 'reasoning', 'tool_call', 'tool_result', 'state', 'done', 'error']);

// The identity every event is first parsed with, before the host is asked for the real one: ids as long as any the
// host may give and the longest seq, so an event that passes with it passes with the host's, and a refused event
// never takes a seq from the host.
const PLACEHOLDER_IDENTITY: AgUiEnvelopeIdentity = {
  turnId: 'x'.repeat(CHAT_LIMITS.maxIdLength),
  eventId: 'x'.repeat(CHAT_LIMITS.maxIdLength),
  seq: Number.MAX_SAFE_INTEGER,
  occurredAt: '2026-12-01T10:00:00.000000000+00:00',
};

// How a resume entry's card answer closed its card.
const RESOLUTIONS = { submit: 'submitted', cancel: 'cancelled', decline: 'declined' } as const;

// Per AG-UI type, the fields the mapping reads; any other field present is reported lost. A Map, so a `type` such as
// `toString` or `constructor` finds nothing inherited.
const READ_FIELDS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    RUN_STARTED: ['threadId', 'runId', 'input'],
    RUN_FINISHED: ['threadId', 'runId', 'outcome', 'usage'],
    RUN_ERROR: ['message', 'code'],
    TEXT_MESSAGE_START: ['messageId', 'role'],
    TEXT_MESSAGE_CONTENT: ['messageId', 'delta'],
    TEXT_MESSAGE_END: ['messageId'],
    REASONING_START: ['messageId'],
    REASONING_MESSAGE_START: ['messageId', 'role'],
    REASONING_MESSAGE_CONTENT: ['messageId', 'delta'],
    REASONING_MESSAGE_END: ['messageId'],
    REASONING_END: ['messageId'],
    TOOL_CALL_START: ['toolCallId', 'toolCallName'],
    TOOL_CALL_ARGS: ['toolCallId', 'delta'],
    TOOL_CALL_END: ['toolCallId'],
    TOOL_CALL_RESULT: ['messageId', 'toolCallId', 'content', 'role'],
    STATE_SNAPSHOT: ['snapshot'],
    STATE_DELTA: ['delta'],
    CUSTOM: ['name', 'value'],
  }),
);

// AG-UI's shorthand events, expanded as `@ag-ui/client`'s `transformChunks` does: a chunk opens (or continues) a lane
// of its kind, and the lane closes at a chunk of another kind or id, or at the next event that is not a chunk.
const CHUNK_KINDS: ReadonlyMap<string, 'text' | 'tool' | 'reasoning'> = new Map([
  ['TEXT_MESSAGE_CHUNK', 'text'],
  ['TOOL_CALL_CHUNK', 'tool'],
  ['REASONING_MESSAGE_CHUNK', 'reasoning'],
]);
const CHUNK_FIELDS: Readonly<Record<'text' | 'tool' | 'reasoning', readonly string[]>> = {
  text: ['messageId', 'role', 'delta'],
  tool: ['toolCallId', 'toolCallName', 'delta'],
  reasoning: ['messageId', 'delta'],
};
// Events that pass an open lane by without closing it (as in `transformChunks`); all of them are refused here.
const PASS_LANE = new Set([
  'RAW',
  'ACTIVITY_SNAPSHOT',
  'ACTIVITY_DELTA',
  'REASONING_ENCRYPTED_VALUE',
  'SUBAGENT_STARTED',
  'SUBAGENT_FINISHED',
  'SUBAGENT_ERROR',
]);

const NO_V1_MEANING = new Set([
  'MESSAGES_SNAPSHOT',
  'ACTIVITY_SNAPSHOT',
  'ACTIVITY_DELTA',
  'RAW',
  'STEP_STARTED',
  'STEP_FINISHED',
  'REASONING_ENCRYPTED_VALUE',
  'SUBAGENT_STARTED',
  'SUBAGENT_FINISHED',
  'SUBAGENT_ERROR',
]);

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
  const fields = readFields(context, ['conversationId', 'identify', 'toolResultStatus', 'parseChatEnvelope']);
  const { conversationId, identify: identifyAs, toolResultStatus, parseChatEnvelope: hostParse } = fields ?? {};
  if (
    typeof conversationId !== 'string' ||
    typeof identifyAs !== 'function' ||
    (toolResultStatus !== undefined && typeof toolResultStatus !== 'function') ||
    (hostParse !== undefined && typeof hostParse !== 'function')
  )
    throw new TypeError(
      'createAgUiDecoder needs { conversationId: string, identify: function, toolResultStatus?: function, parseChatEnvelope?: function }',
    );
  // Narrowed here, for the function declarations below (hoisted, they see no narrowing).
  const identify = identifyAs;
  // Without a parser of its own, Envelope is its default, ChatEventEnvelope.
  const parse =
    hostParse === undefined
      ? (parseChatEnvelope as (input: unknown) => ParseResult<Envelope>)
      : (input: unknown) => hostParse.call(context, input);
  const counts: Partial<Record<DecodeAgUiEventRefusalCode, number>> = {};
  const view = createReducerView();
  let run: OpenRun | undefined;
  // The chunk lane open now, and what closing one made while the event that closed it was refused.
  let lane: { readonly kind: 'text' | 'tool' | 'reasoning'; readonly id: string } | undefined;
  let pending: { envelopes: Envelope[]; lost: AgUiLoss[] } = { envelopes: [], lost: [] };
  let stateVersion = -1;
  // The last host state seen, which an AG-UI STATE_DELTA patches.
  let lastSnapshot: { readonly snapshot: unknown } | undefined;

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
    if (!isRecord(input) || typeof input['type'] !== 'string') return decodeOne(input);
    const kind = CHUNK_KINDS.get(input['type']);
    if (kind !== undefined) return deliver(decodeChunk(kind, input));
    if (lane !== undefined && !PASS_LANE.has(input['type'])) closeLane(input['timestamp']);
    return deliver(decodeOne(input));
  }

  // What closing a lane made travels with the next accepted event, in seq order: never dropped.
  function deliver(result: DecodeAgUiEventResult<Envelope>): DecodeAgUiEventResult<Envelope> {
    if (!result.ok || (pending.envelopes.length === 0 && pending.lost.length === 0)) return result;
    const { envelopes, lost } = pending;
    pending = { envelopes: [], lost: [] };
    return { ok: true, envelopes: [...envelopes, ...result.envelopes], lost: [...lost, ...result.lost] };
  }

  // Closes the open lane with the END event `transformChunks` would write; a lane that cannot close (arguments that
  // are not JSON) is counted as that refusal, and the event that closed it is decoded all the same.
  function closeLane(timestamp: unknown): void {
    if (lane === undefined) return;
    const { kind, id } = lane;
    lane = undefined;
    const end =
      kind === 'text'
        ? { type: 'TEXT_MESSAGE_END', messageId: id }
        : kind === 'tool'
          ? { type: 'TOOL_CALL_END', toolCallId: id }
          : { type: 'REASONING_MESSAGE_END', messageId: id };
    const closed = decodeOne(timestamp === undefined ? end : { ...end, timestamp });
    if (!closed.ok) {
      count(closed.code);
      return;
    }
    pending.envelopes.push(...closed.envelopes);
    pending.lost.push(...closed.lost);
  }

  function decodeChunk(kind: 'text' | 'tool' | 'reasoning', input: Fields): DecodeAgUiEventResult<Envelope> {
    const idField = kind === 'tool' ? 'toolCallId' : 'messageId';
    const id = input[idField];
    const timing = input['timestamp'] === undefined ? {} : { timestamp: input['timestamp'] };
    if (lane !== undefined && (lane.kind !== kind || (id !== undefined && id !== lane.id))) closeLane(input['timestamp']);
    const conflict = laneConflict(kind, input);
    if (conflict !== undefined) return refuse('invalid-event', conflict);
    const steps: Fields[] = [];
    if (lane === undefined) {
      if (typeof id !== 'string')
        return refuse('invalid-event', `the first ${describe(input['type'])} of a lane needs a string ${idField}`);
      if (kind === 'tool' && typeof input['toolCallName'] !== 'string')
        return refuse('invalid-event', 'the first TOOL_CALL_CHUNK of a lane needs a string toolCallName');
      if (kind === 'text') steps.push({ type: 'TEXT_MESSAGE_START', messageId: id, role: input['role'] ?? 'assistant', ...timing });
      else if (kind === 'tool') steps.push({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: input['toolCallName'], ...timing });
      else steps.push({ type: 'REASONING_MESSAGE_START', messageId: id, role: 'reasoning', ...timing });
    }
    const laneId = lane?.id ?? (id as string);
    if (input['delta'] !== undefined) {
      const content = kind === 'text' ? 'TEXT_MESSAGE_CONTENT' : kind === 'tool' ? 'TOOL_CALL_ARGS' : 'REASONING_MESSAGE_CONTENT';
      steps.push({ type: content, [idField]: laneId, delta: input['delta'], ...timing });
    }
    const envelopes: Envelope[] = [];
    const lost: AgUiLoss[] = unreadFields(input, CHUNK_FIELDS[kind]);
    for (const step of steps) {
      const result = decodeOne(step);
      if (!result.ok) return result;
      if (typeof step['type'] === 'string' && step['type'].endsWith('_START')) lane = { kind, id: laneId };
      envelopes.push(...result.envelopes);
      lost.push(...result.lost);
    }
    return { ok: true, envelopes, lost };
  }

  // A continuation chunk may repeat its lane's role or toolCallName, never contradict it (AG-UI's chunk rules).
  function laneConflict(kind: 'text' | 'tool' | 'reasoning', input: Fields): string | undefined {
    if (lane === undefined || run === undefined) return undefined;
    if (kind === 'text' && input['role'] !== undefined && input['role'] !== run.text.get(lane.id)?.role)
      return `the TEXT_MESSAGE_CHUNK role ${describe(input['role'])} contradicts the open message's`;
    if (kind === 'tool' && input['toolCallName'] !== undefined && input['toolCallName'] !== run.calls.get(lane.id)?.name)
      return `the TOOL_CALL_CHUNK toolCallName ${describe(input['toolCallName'])} contradicts the open call's`;
    return undefined;
  }

  // Subagent lifecycles have no v1 meaning, but a run must not finish while one it announced is still running.
  function observeSubagent(type: string, input: Fields): void {
    const id = input['subagentRunId'];
    if (run === undefined || typeof id !== 'string') return;
    if (type === 'SUBAGENT_STARTED' && typeof input['name'] === 'string') run.subagents.add(id);
    if (type === 'SUBAGENT_FINISHED' || type === 'SUBAGENT_ERROR') run.subagents.delete(id);
  }

  function decodeOne(input: unknown): DecodeAgUiEventResult<Envelope> {
    if (!isRecord(input) || typeof input['type'] !== 'string')
      return refuse('invalid-event', 'an AG-UI event is an object with a string type');
    const type = input['type'];
    if (NO_V1_MEANING.has(type)) {
      observeSubagent(type, input);
      return refuse('unsupported-event', `AG-UI ${type} has no v1 meaning`);
    }
    const read = READ_FIELDS.get(type);
    if (read === undefined) return refuse('invalid-event', `${type} is not an AG-UI 1.0 event type`);
    let step: TranslatedStep;
    let target: OpenRun;
    if (type === 'RUN_STARTED') {
      const started = runStarted(input);
      if (!started.ok) return started;
      step = started;
      target = started.opens;
    } else {
      if (run === undefined) return refuse('outside-run', `${type} arrived outside an AG-UI run`);
      const translated = translate(type, input, run);
      if (!translated.ok) return translated;
      step = translated;
      target = run;
    }
    // Every event is checked before any takes an identity: a refused one never costs the host a seq.
    for (const event of step.events) {
      const placed = view.refusal(target.runId, event);
      if (placed !== undefined) return placed;
      const checked = parse(envelopeOf(event, PLACEHOLDER_IDENTITY));
      if (!checked.ok) return refuse('invalid-envelope', `the v1 parser refused the envelope: ${checked.message}`, checked.issues);
    }
    const envelopes: Envelope[] = [];
    for (const event of step.events) {
      const timestamp = typeof input['timestamp'] === 'number' ? input['timestamp'] : undefined;
      const identity = identify.call(context, { runId: target.runId, type: event['type'] as ChatEventTypeV1, timestamp });
      const parsed = parse(envelopeOf(event, identity));
      // Only the host's identity can fail here: its own fault, refused as the envelope it made.
      if (!parsed.ok) return refuse('invalid-envelope', `the v1 parser refused the envelope: ${parsed.message}`, parsed.issues);
      view.record(target.runId, event);
      envelopes.push(parsed.value);
    }
    step.commit?.();
    return { ok: true, envelopes, lost: [...unreadFields(input, read), ...step.lost] };
  }

  function envelopeOf(event: Fields, identity: AgUiEnvelopeIdentity): unknown {
    return {
      schemaVersion: 1,
      conversationId,
      turnId: identity.turnId,
      eventId: identity.eventId,
      seq: identity.seq,
      occurredAt: identity.occurredAt,
      event,
    };
  }

  // Every event but RUN_STARTED, inside the open run.
  function translate(type: string, input: Fields, current: OpenRun): Step {
    switch (type) {
      case 'RUN_FINISHED':
        return runFinished(input, current);
      case 'RUN_ERROR':
        return runError(input);
      case 'TEXT_MESSAGE_START': {
        const messageId = input['messageId'];
        const role = input['role'] ?? 'assistant';
        if (typeof messageId !== 'string') return refuse('invalid-event', 'TEXT_MESSAGE_START needs a string messageId');
        if (typeof role !== 'string' || !TEXT_ROLES.has(role))
          return refuse('invalid-event', `${describe(role)} is not an AG-UI text message role`);
        if (role !== 'assistant' && role !== 'user') return refuse('unsupported-event', `a ${role} text message has no v1 meaning`);
        current.text.set(messageId, { role, buffer: '', subagent: input['subagentRunId'] });
        return { ok: true, events: [], lost: [] };
      }
      case 'TEXT_MESSAGE_CONTENT': {
        const message = lookup(current.text, input['messageId']);
        if (message === undefined) return refuse('unknown-message', 'TEXT_MESSAGE_CONTENT for a message that was not started');
        if (typeof input['delta'] !== 'string') return refuse('invalid-event', 'TEXT_MESSAGE_CONTENT needs a string delta');
        if (!sameProducer(input, message.subagent)) return refuse('invalid-event', 'its subagentRunId does not match its message opener');
        if (message.role === 'user') {
          message.buffer += input['delta'];
          return { ok: true, events: [], lost: [] };
        }
        return { ok: true, events: [{ type: 'delta', text: input['delta'] }], lost: [] };
      }
      case 'TEXT_MESSAGE_END': {
        const messageId = input['messageId'];
        const message = lookup(current.text, messageId);
        if (typeof messageId !== 'string' || message === undefined)
          return refuse('unknown-message', 'TEXT_MESSAGE_END for a message that was not started');
        if (!sameProducer(input, message.subagent)) return refuse('invalid-event', 'its subagentRunId does not match its message opener');
        current.text.delete(messageId);
        return { ok: true, events: message.role === 'user' ? [{ type: 'user_input', text: message.buffer }] : [], lost: [] };
      }
      case 'REASONING_START':
      case 'REASONING_MESSAGE_START': {
        const messageId = input['messageId'];
        if (typeof messageId !== 'string') return refuse('invalid-event', `${type} needs a string messageId`);
        if (type === 'REASONING_MESSAGE_START' && input['role'] !== undefined && input['role'] !== 'reasoning')
          return refuse('invalid-event', 'a REASONING_MESSAGE_START role is "reasoning"');
        current.reasoning.add(messageId);
        return { ok: true, events: [], lost: [] };
      }
      case 'REASONING_MESSAGE_CONTENT': {
        const messageId = input['messageId'];
        if (typeof messageId !== 'string' || !current.reasoning.has(messageId))
          return refuse('unknown-message', 'reasoning content for a message that was not started');
        if (typeof input['delta'] !== 'string') return refuse('invalid-event', 'REASONING_MESSAGE_CONTENT needs a string delta');
        return { ok: true, events: [{ type: 'reasoning', text: input['delta'] }], lost: [] };
      }
      case 'REASONING_MESSAGE_END':
        return { ok: true, events: [], lost: [] };
      case 'REASONING_END': {
        const messageId = input['messageId'];
        if (typeof messageId === 'string') current.reasoning.delete(messageId);
        return { ok: true, events: [], lost: [] };
      }
      case 'TOOL_CALL_START': {
        const toolCallId = input['toolCallId'];
        const name = input['toolCallName'];
        if (typeof toolCallId !== 'string' || typeof name !== 'string')
          return refuse('invalid-event', 'TOOL_CALL_START needs a string toolCallId and toolCallName');
        // A call id names one call of the turn: a second START (open or made) would be a tool call the reducer refuses.
        if (current.calls.has(toolCallId) || view.callName(current.runId, toolCallId) !== undefined)
          return refuse('duplicate-tool-call', `the call ${toolCallId} was already started in this run`);
        current.calls.set(toolCallId, { name, args: '', subagent: input['subagentRunId'] });
        return { ok: true, events: [], lost: [] };
      }
      case 'TOOL_CALL_ARGS': {
        const call = lookup(current.calls, input['toolCallId']);
        if (call === undefined) return refuse('unknown-tool-call', 'TOOL_CALL_ARGS for a call that was not started');
        if (typeof input['delta'] !== 'string') return refuse('invalid-event', 'TOOL_CALL_ARGS needs a string delta');
        if (!sameProducer(input, call.subagent)) return refuse('invalid-event', 'its subagentRunId does not match its call opener');
        call.args += input['delta'];
        return { ok: true, events: [], lost: [] };
      }
      case 'TOOL_CALL_END':
        return toolCallEnd(input, current);
      case 'TOOL_CALL_RESULT':
        return toolCallResult(input, current);
      case 'STATE_SNAPSHOT':
        return stateSnapshot(input);
      case 'STATE_DELTA':
        return stateDelta(input);
      default:
        return custom(input);
    }
  }

  function runStarted(input: Fields): (TranslatedStep & { readonly opens: OpenRun }) | ChatRefusal<DecodeAgUiEventRefusalCode> {
    const threadId = input['threadId'];
    const runId = input['runId'];
    if (typeof threadId !== 'string' || typeof runId !== 'string')
      return refuse('invalid-event', 'RUN_STARTED needs a string threadId and runId');
    if (threadId !== conversationId) return refuse('foreign-thread', 'the AG-UI thread is not this conversation');
    if (run !== undefined) return refuse('outside-run', 'a run started before the previous one finished');
    // A run id names one turn: its turn ended, so anything more in it is what the reducer calls turn-terminal.
    if (view.ended(runId)) return refuse('outside-run', `the run ${runId} already finished`);
    const opening: OpenRun = { runId, text: new Map(), reasoning: new Set(), calls: new Map(), subagents: new Set() };
    const request = runInput(input['input'], runId);
    return { ...request, opens: opening, commit: () => (run = opening) };
  }

  // A run's request is not an event, but its resume entries say how the cards it answers closed: card_closed each,
  // when it closes a card this stream left waiting (else the reducer would refuse it: reported lost with its code).
  function runInput(request: unknown, runId: string): { ok: true; events: Fields[]; lost: AgUiLoss[] } {
    const lost: AgUiLoss[] = [];
    const events: Fields[] = [];
    if (request === undefined) return { ok: true, events, lost };
    if (!isRecord(request)) return { ok: true, events, lost: [{ field: 'input', reason: "a run's request is not a v1 event" }] };
    for (const key of Object.keys(request)) {
      if (key !== 'resume') lost.push({ field: `input.${key}`, reason: "a run's request is not a v1 event" });
    }
    const resume = request['resume'];
    if (resume === undefined) return { ok: true, events, lost };
    if (!Array.isArray(resume))
      return { ok: true, events, lost: [...lost, { field: 'input.resume', reason: 'not a list of resume entries' }] };
    const entries: unknown[] = resume;
    const closing = new Set<string>();
    entries.forEach((entry, index) => {
      const answer = cardResponseFromResumeEntry(entry);
      if (!answer.ok) {
        lost.push({ field: `input.resume[${index}]`, reason: `not a card answer (${answer.code})` });
        return;
      }
      const { action, correlationId } = answer.value;
      const event = { type: 'card_closed', correlationId, resolution: RESOLUTIONS[action] };
      const placed = closing.has(correlationId) ? refuse('card-closed', 'answered twice') : view.refusal(runId, event);
      if (placed !== undefined) {
        lost.push({ field: `input.resume[${index}]`, reason: `it answers no card this stream left waiting (${placed.code})` });
        return;
      }
      closing.add(correlationId);
      events.push(event);
      if (action === 'submit')
        lost.push({ field: `input.resume[${index}].payload`, reason: 'card_closed says how the card closed, not the answer' });
      if (answer.value.action === 'decline' && answer.value.reason !== undefined) {
        lost.push({ field: `input.resume[${index}].metadata`, reason: 'card_closed carries no decline reason' });
      }
    });
    return { ok: true, events, lost };
  }

  function runFinished(input: Fields, current: OpenRun): Step {
    if (input['runId'] !== current.runId) return refuse('outside-run', 'RUN_FINISHED for another run');
    const open = [...current.text.keys(), ...current.calls.keys(), ...current.subagents];
    if (open.length > 0) return refuse('unclosed-brackets', `RUN_FINISHED while ${open.join(', ')} is still open`);
    // An outcome that is not an object is malformed: reading the run as finished would drop, say, its interrupt.
    if (input['outcome'] !== undefined && !isRecord(input['outcome']))
      return refuse('invalid-event', 'a RUN_FINISHED outcome is an object');
    const close = () => (run = undefined);
    const carried = readCarried(input['metadata']);
    const outcome = isRecord(input['outcome']) ? input['outcome'] : undefined;
    const lost: AgUiLoss[] = [];
    // This package's encoder closes the run of a turn that never ended this way (AG-UI runs do not interleave): the
    // turn goes on in v1, so no done is made, and a later run with the same id continues it.
    if (carried?.['turnEnded'] === false) {
      for (const field of ['outcome', 'usage'])
        if (input[field] !== undefined) lost.push({ field, reason: 'the run closed a turn that had not ended: no done is made' });
      return { ok: true, events: [], lost, commit: close };
    }
    if (outcome !== undefined && (typeof outcome['type'] !== 'string' || !OUTCOME_TYPES.has(outcome['type'])))
      lost.push({ field: 'outcome', reason: 'not an AG-UI 1.0 outcome; the run reads as finished without one' });
    const event: Record<string, unknown> = { type: 'done' };
    let foreignInterrupt = false;
    if (outcome?.['type'] === 'interrupt' && Array.isArray(outcome['interrupts'])) {
      const interrupts: unknown[] = outcome['interrupts'];
      const awaiting: string[] = [];
      interrupts.forEach((interrupt, index) => {
        const id = isRecord(interrupt) ? interrupt['id'] : undefined;
        // Only an open card this run asked can be awaited in v1; any other interrupt stops the turn unfinished.
        if (!isRecord(interrupt) || typeof id !== 'string' || !view.awaitable(current.runId, id) || awaiting.includes(id)) {
          foreignInterrupt = true;
          lost.push({
            field: `outcome.interrupts[${index}]`,
            reason: 'it names no open v1 card this run asked (or one named before): v1 cannot show what the run waits for',
          });
          return;
        }
        awaiting.push(id);
        for (const key of Object.keys(interrupt)) {
          if (key !== 'id')
            lost.push({
              field: `outcome.interrupts[${index}].${key}`,
              reason: 'v1 reads an interrupt as the awaited card it names; the card itself carries its prompt',
            });
        }
      });
      if (awaiting.length > 0) event['awaiting'] = awaiting;
    }
    const carriedStatus = carried?.['status'];
    if (isOneOf(carriedStatus, DONE_STATUSES)) event['status'] = carriedStatus;
    else event['status'] = outcome?.['type'] === 'cancelled' ? 'cancelled' : foreignInterrupt ? 'interrupted' : 'completed';
    if (carried?.['stopReason'] !== undefined) event['stopReason'] = carried['stopReason'];
    if (outcome?.['type'] === 'success' && outcome['pendingToolCallIds'] !== undefined) {
      lost.push({ field: 'outcome.pendingToolCallIds', reason: 'v1 has no pending client-side tool calls' });
    }
    if (Array.isArray(input['usage'])) event['usage'] = usageOf(input['usage'], lost);
    return { ok: true, events: [event], lost, commit: close };
  }

  function runError(input: Fields): Step {
    const carried = readCarried(input['metadata']);
    const message = input['message'];
    if (typeof message !== 'string') return refuse('invalid-event', 'RUN_ERROR needs a string message');
    const retryable = carried?.['retryable'] === true;
    const event: Record<string, unknown> = { type: 'error', code: input['code'] ?? 'ag-ui-run-error', message, retryable };
    if (retryable && carried?.['retryAfterMs'] !== undefined) event['retryAfterMs'] = carried['retryAfterMs'];
    return { ok: true, events: [event], lost: [], commit: () => (run = undefined) };
  }

  function toolCallEnd(input: Fields, current: OpenRun): Step {
    const toolCallId = input['toolCallId'];
    const call = lookup(current.calls, toolCallId);
    if (typeof toolCallId !== 'string' || call === undefined)
      return refuse('unknown-tool-call', 'TOOL_CALL_END for a call that was not started');
    if (!sameProducer(input, call.subagent)) return refuse('invalid-event', 'its subagentRunId does not match its call opener');
    // The END closes the bracket whatever follows; the call is made (and its result placeable) only once its
    // tool_call envelope is emitted.
    current.calls.delete(toolCallId);
    const event: Record<string, unknown> = { type: 'tool_call', callId: toolCallId, name: call.name };
    if (call.args !== '') {
      try {
        event['input'] = JSON.parse(call.args) as unknown;
      } catch {
        return refuse('invalid-tool-arguments', 'the tool call arguments are not JSON');
      }
    }
    return { ok: true, events: [event], lost: [] };
  }

  function toolCallResult(input: Fields, current: OpenRun): Step {
    const toolCallId = input['toolCallId'];
    if (typeof toolCallId !== 'string') return refuse('unknown-tool-call', 'TOOL_CALL_RESULT for a call this stream did not make');
    // A result for a call this run did not make (another run's: AG-UI's client-side tools; a refused one; none) or
    // already answered is one the reducer refuses: the view names which.
    const call = view.resultFor(current.runId, toolCallId);
    if (!call.ok) return call;
    const { name } = call;
    const carried = readCarried(input['metadata']);
    const carriedStatus = carried?.['status'];
    const status = isOneOf(carriedStatus, TOOL_RESULT_STATUSES)
      ? carriedStatus
      : toolResultStatus?.call(context, { toolCallId, toolName: name, content: input['content'], metadata: input['metadata'] });
    if (status === undefined)
      return refuse('unknown-tool-status', 'the AG-UI tool result does not say whether it succeeded, and the host gave no mapping');
    const lost: AgUiLoss[] = [];
    const summary = contentText(input['content'], lost);
    const event: Record<string, unknown> = { type: 'tool_result', callId: toolCallId, name, status };
    if (summary !== '') event['summary'] = summary;
    if (carried?.['error'] !== undefined) event['error'] = carried['error'];
    return { ok: true, events: [event], lost };
  }

  function stateSnapshot(input: Fields): Step {
    const carried = readCarried(input['metadata'])?.['version'];
    // v1 state versions only order snapshots; without a carried one the decoder continues the count.
    const version = typeof carried === 'number' && carried > stateVersion ? carried : stateVersion + 1;
    const commit = () => {
      stateVersion = version;
      lastSnapshot = { snapshot: input['snapshot'] };
    };
    return { ok: true, events: [{ type: 'state', version, snapshot: input['snapshot'] }], lost: [], commit };
  }

  function stateDelta(input: Fields): Step {
    // v1 state is a snapshot: the patch applied to the last one is that snapshot's next version.
    if (lastSnapshot === undefined) return refuse('unknown-state', 'a STATE_DELTA needs a STATE_SNAPSHOT before it');
    const patched = applyJsonPatch(lastSnapshot.snapshot, input['delta']);
    if (!patched.ok) return refuse('invalid-patch', patched.message);
    const version = stateVersion + 1;
    const commit = () => {
      stateVersion = version;
      lastSnapshot = { snapshot: patched.value };
    };
    return { ok: true, events: [{ type: 'state', version, snapshot: patched.value }], lost: [], commit };
  }

  function custom(input: Fields): Step {
    if (input['name'] !== AG_UI_CUSTOM_EVENT_NAME)
      return refuse('unsupported-event', `the CUSTOM event ${describe(input['name'])} has no v1 meaning`);
    const value = input['value'];
    if (!isRecord(value)) return refuse('invalid-event', `a ${AG_UI_CUSTOM_EVENT_NAME} value is a v1 event`);
    if (typeof value['type'] === 'string' && NATIVE_TYPES.has(value['type']))
      return refuse('invalid-event', `a v1 ${value['type']} travels as its own AG-UI event, never in ${AG_UI_CUSTOM_EVENT_NAME}`);
    return { ok: true, events: [value], lost: [] };
  }

  return { decode, refusals: () => ({ ...counts }) };
}

function unreadFields(input: Fields, read: readonly string[]): AgUiLoss[] {
  const lost: AgUiLoss[] = [];
  for (const key of Object.keys(input)) {
    if (key === 'type' || key === 'timestamp' || read.includes(key)) continue;
    if (key === 'metadata' && isRecord(input['metadata'])) {
      for (const metadataKey of Object.keys(input['metadata'])) {
        if (metadataKey !== AG_UI_METADATA_KEY) lost.push({ field: `metadata.${metadataKey}`, reason: 'v1 events have no open metadata' });
      }
      continue;
    }
    lost.push({ field: key, reason: 'v1 has no field for it' });
  }
  return lost;
}

// A continuation that names a producer must name its opener's; one that names none continues it.
function sameProducer(input: Fields, opener: unknown): boolean {
  return input['subagentRunId'] === undefined || input['subagentRunId'] === opener;
}

function contentText(content: unknown, lost: AgUiLoss[]): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: unknown[] = content;
  let text = '';
  parts.forEach((part, index) => {
    if (isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string') text += part['text'];
    else lost.push({ field: `content[${index}]`, reason: 'v1 tool results summarise in text; media parts are not carried' });
  });
  return text;
}

function usageOf(entries: readonly unknown[], lost: AgUiLoss[]): Record<string, number> {
  const usage: Record<string, number> = {};
  entries.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    for (const [key, value] of Object.entries(entry)) {
      if ((key === 'inputTokens' || key === 'outputTokens' || key === 'totalTokens') && typeof value === 'number') {
        usage[key] = (usage[key] ?? 0) + value;
      } else {
        lost.push({ field: `usage[${index}].${key}`, reason: 'v1 usage is one total of input, output and total tokens' });
      }
    }
  });
  return usage;
}

// A Map lookup by a field that may not be a string: anything else finds nothing (never `String(value)`'s "[object Object]").
function lookup<Value>(map: ReadonlyMap<string, Value>, key: unknown): Value | undefined {
  return typeof key === 'string' ? map.get(key) : undefined;
}

// A value in a refusal message: `String` of a copied object with its own `toString` field would throw.
function describe(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null ? 'null' : typeof value;
}

function isOneOf<Value extends string>(value: unknown, values: readonly Value[]): value is Value {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
