/**
 * The AI SDK 6 UI message stream to strict v1 envelopes. One stream is one
 * assistant message, so one turn; the host's context supplies the
 * conversation, the turn, each event id and time, and the seq (as the legacy
 * adapter's decoder context does). Chunks with no v1 meaning are refused and
 * counted; an outcome the stream does not state is never made a success; and
 * a chunk whose envelope core's reducer would refuse after the ones already
 * made is refused here instead, so one bad chunk never costs the rest of the turn.
 */
import {
  CHAT_EVENT_FIELDS,
  CHAT_LIMITS,
  encodeChatEnvelope,
  isChatEventTypeV1,
  isChatId,
  isSafeJson,
  readFields,
  refuse,
  type ChatEventEnvelope,
  type ChatEventV1,
  type ChatRefusal,
} from '@papercusp/chat-protocol-core';
import { AI_SDK_DATA_PARTS, AI_SDK_TOOL_RESULT_PART, AI_SDK_TURN_END_PART, type AiSdkLoss } from '../ui-message-chunk.js';

/** What the host tells the decoder about the stream. */
export interface AiSdkDecoderContext {
  readonly conversationId: string;
  /** The turn the stream's message belongs to (the stream's `messageId` is not a v1 id). */
  readonly turnId: string;
  /** The seq of the first envelope; 1 unless the turn already has envelopes. */
  readonly firstSeq?: number | undefined;
  /**
   * The host's event id and time for the envelope about to be made at `seq`
   * from `chunk`. Called only for chunks that decode; the seq advances only
   * when an envelope is produced, so a refused chunk never uses one up.
   */
  readonly identify: (request: { readonly seq: number; readonly chunk: Readonly<Record<string, unknown>> }) => {
    readonly eventId: string;
    readonly occurredAt: string;
  };
  /**
   * The correlation ids of the cards earlier turns of the conversation left
   * waiting (their `done.awaiting`, not closed since): a `data-card-closed` or
   * an approval response of this stream may close them (DESIGN §3.3). Any
   * other card the stream did not ask is `unknown-card`.
   */
  readonly awaitingCards?: readonly string[] | undefined;
}

/** Refusal codes of {@link AiSdkDecoder.decode}. */
export type AiSdkDecodeRefusalCode =
  /** Not a UI message chunk: not an object with a string `type`, or a field of the wrong type. */
  | 'invalid-chunk'
  /** A chunk with no v1 meaning (sources, files, message metadata, a `data-*` part this package does not write, an unknown type). */
  | 'unsupported-chunk'
  /** A tool output, error, denial or approval request for a call the stream never announced (a call of an earlier stream included). */
  | 'unknown-tool-call'
  /** A `data-card-closed` or AI SDK 7 `tool-approval-response` for a card or approval the stream never asked (nor one the context names waiting). */
  | 'unknown-card'
  /** A second `tool-input-available` or `tool-input-error` for a call. */
  | 'duplicate-tool-call'
  /** A second outcome for a call: `ai` writes `tool-input-error` then `tool-output-error` for an unknown tool or an invalid input. */
  | 'duplicate-tool-result'
  /** A `data-card` for a card already asked (by a `data-card`, an approval request, or an earlier turn still waiting for it). */
  | 'duplicate-card'
  /** A `data-card-closed` or approval response for a card already closed. */
  | 'card-closed'
  /** A `data-state` whose version is not after the last one. */
  | 'stale-state'
  /** A `data-user-input` that would not be the turn's first envelope (seq 1). */
  | 'misplaced-user-input'
  /** A preliminary tool output: it states no outcome, so it is never read as a success. */
  | 'unknown-status'
  /** A chunk after the turn's terminal chunk (`finish`, `abort`, `error`). */
  | 'turn-terminal'
  /** The lifted envelope fails the strict v1 encoder (the issues name the field). */
  | 'invalid-envelope';

/** What one chunk decoded to: zero or more envelopes (a `tool-input-error` is a call and its failure). */
export type AiSdkDecodeResult =
  | {
      readonly ok: true;
      readonly envelopes: readonly ChatEventEnvelope[];
      readonly lost: readonly AiSdkLoss[];
    }
  | ChatRefusal<AiSdkDecodeRefusalCode>;

/** Running counts of a decoder. Every chunk lands in exactly one of `decoded`, `transport`, `refused`. */
export interface AiSdkDecoderCounts {
  /** Chunks read for their meaning: envelopes, or none for an approval request a `data-card` already announced. */
  readonly decoded: number;
  /** Structural chunks (`start`, `start-step`, part starts and ends, input streaming): no envelope. */
  readonly transport: number;
  readonly refused: number;
  readonly refusals: Readonly<Partial<Record<AiSdkDecodeRefusalCode, number>>>;
}

/** A stateful reader for one UI message stream: see {@link createAiSdkDecoder}. */
export interface AiSdkDecoder {
  /** Decodes one chunk (the parsed JSON of one SSE `data:` line). Never throws on any input. */
  decode(chunk: unknown): AiSdkDecodeResult;
  /** A snapshot of the counts so far. */
  counts(): AiSdkDecoderCounts;
}

// Every lookup keyed by a chunk's own strings goes through a Set or a Map: a plain
// record would answer `toString` or `constructor` from Object.prototype.
const TRANSPORT = new Set([
  'start',
  'start-step',
  'finish-step',
  'text-start',
  'text-end',
  'reasoning-start',
  'reasoning-end',
  'tool-input-start',
  'tool-input-delta',
]);
// AI SDK 7 adds `custom`, `reasoning-file` and `reset-step` (v1 cannot retract a step already streamed).
const UNSUPPORTED = new Set(['source-url', 'source-document', 'file', 'message-metadata', 'custom', 'reasoning-file', 'reset-step']);
const DATA_EVENTS: ReadonlyMap<string, keyof typeof AI_SDK_DATA_PARTS> = new Map(
  Object.entries(AI_SDK_DATA_PARTS).map(([type, part]) => [part, type as keyof typeof AI_SDK_DATA_PARTS]),
);
/** The fields each chunk type hands to v1; any other field present is reported lost. */
const CARRIED: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>(
  Object.entries({
    'text-delta': ['id', 'delta'],
    'reasoning-delta': ['id', 'delta'],
    // A part's id is reported once, on its start: v1 keeps one text and one reasoning per turn.
    'text-start': [],
    'text-end': ['id'],
    'reasoning-start': [],
    'reasoning-end': ['id'],
    'start-step': [],
    'finish-step': [],
    // The host's turn id names the turn, so the stream's message id is reported lost.
    start: [],
    'tool-input-start': ['toolCallId', 'toolName'],
    'tool-input-delta': ['toolCallId', 'inputTextDelta'],
    'tool-input-available': ['toolCallId', 'toolName', 'input'],
    'tool-input-error': ['toolCallId', 'toolName', 'input', 'errorText'],
    'tool-output-available': ['toolCallId', 'output', 'preliminary'],
    'tool-output-error': ['toolCallId', 'errorText'],
    'tool-output-denied': ['toolCallId'],
    'tool-approval-request': ['approvalId', 'toolCallId'],
    'tool-approval-response': ['approvalId', 'approved'],
    error: ['errorText'],
    finish: ['finishReason'],
    abort: ['reason'],
  }),
);
const DATA_CARRIED = ['id', 'data', 'transient'];

/** The code a v1 error decoded from an AI SDK `error` chunk carries (the chunk has none). */
export const AI_SDK_ERROR_CODE = 'ai-sdk-error';

/**
 * Creates the reader for one UI message stream (one assistant message, one
 * v1 turn).
 *
 * Guarantees:
 * - every envelope passes the strict v1 encoder, with the context's ids, time
 *   and a contiguous seq from `firstSeq`;
 * - core's `applyChatEvent`, given the envelopes in order (after the earlier
 *   turns the context's `awaitingCards` come from), applies every one: a
 *   chunk whose envelope it would refuse (a second outcome for a call, a card
 *   asked twice or closed unasked, a stale state, a misplaced user input) is
 *   refused here with the reducer's code, counted, and uses up no seq;
 * - `tool-output-available` (final) is `succeeded`, `tool-output-error` and
 *   `tool-input-error` are `failed`, `tool-output-denied` is `cancelled`; a
 *   preliminary output is refused (`unknown-status`): no outcome is invented;
 * - an `error` chunk is a v1 `error` with `retryable: false` (the chunk grants
 *   no retry) and the code {@link AI_SDK_ERROR_CODE}; `finish` is `done`
 *   completed (its reason the `stopReason`), `abort` is `done` cancelled;
 * - a chunk's fields v1 cannot hold are listed in `lost`; a refused chunk
 *   yields nothing and is counted by its code;
 * - `decode` never throws: a chunk is read once, as its JSON text carries it,
 *   so getters and Proxy traps run only there and a failing read is
 *   `invalid-chunk`.
 *
 * Throws `TypeError` at creation only, when the context cannot be read, has
 * no `identify` function, or has `awaitingCards` that are not strings; the
 * context is read once, here.
 */
export function createAiSdkDecoder(context: AiSdkDecoderContext): AiSdkDecoder {
  const read = typeof context === 'object' && context !== null ? readFields(context, CONTEXT_FIELDS) : undefined;
  if (typeof read?.identify !== 'function') throw new TypeError('createAiSdkDecoder needs a context with an identify function');
  const { conversationId, turnId, identify } = read;
  const awaitingCards = readAwaitingCards(read.awaitingCards);
  let seq = read.firstSeq ?? 1;
  let terminal = false;
  // What the envelopes made so far told core's reducer: the rules below refuse what it would.
  const calls = new Map<string, { readonly name: string; readonly input: unknown; resulted: boolean }>();
  // `own` cards were asked in this stream; the others are earlier turns' cards still waiting.
  const cards = new Map<string, { readonly own: boolean; closed: boolean }>(
    awaitingCards.map((correlationId) => [correlationId, { own: false, closed: false }]),
  );
  let stateVersion: number | undefined;
  let turnEnd: Readonly<Record<string, unknown>> | undefined;
  // The v1 fields of a failed or cancelled tool result, by call id, from the part written before its chunk.
  const toolResults = new Map<string, Readonly<Record<string, unknown>>>();
  // A card made from an approval request is created when the host records its envelope.
  const approvalCards = new WeakSet<object>();
  const counts = { decoded: 0, transport: 0, refused: 0 };
  const refusals: Partial<Record<AiSdkDecodeRefusalCode, number>> = {};

  function refused(code: AiSdkDecodeRefusalCode, message: string, issues?: ChatRefusal<string>['issues']): AiSdkDecodeResult {
    counts.refused += 1;
    refusals[code] = (refusals[code] ?? 0) + 1;
    return refuse(code, message, issues);
  }

  function decodeChunk(chunk: Readonly<Record<string, unknown>>, type: string): AiSdkDecodeResult {
    const lost = lostFields(chunk, type);
    if (terminal) {
      if (type === 'finish' || type === 'finish-step') {
        counts.transport += 1;
        return { ok: true, envelopes: [], lost };
      }
      return refused('turn-terminal', `a ${type} chunk after the turn ended`);
    }
    if (TRANSPORT.has(type)) {
      counts.transport += 1;
      return { ok: true, envelopes: [], lost };
    }
    if (type === AI_SDK_TURN_END_PART) {
      const data = chunk['data'];
      if (!isRecord(data)) return refused('invalid-chunk', 'a data-turn-end part needs a data object');
      turnEnd = data;
      counts.transport += 1;
      return { ok: true, envelopes: [], lost };
    }
    if (type === AI_SDK_TOOL_RESULT_PART) {
      const data = chunk['data'];
      const id = chunk['id'];
      if (!isRecord(data) || typeof id !== 'string')
        return refused('invalid-chunk', 'a data-tool-result part needs a string id and a data object');
      toolResults.set(id, data);
      counts.transport += 1;
      return { ok: true, envelopes: [], lost };
    }
    const events = eventsOf(chunk, type, lost);
    if (!Array.isArray(events)) return refused(events.code, events.message);
    const misplaced = placementRefusal(events);
    if (misplaced !== undefined) return refused(misplaced.code, misplaced.message);
    const envelopes: ChatEventEnvelope[] = [];
    // Whether the chunk's tool result read the part written before it (or reported why not).
    let readDetail = false;
    for (const [index, event] of events.entries()) {
      const { eventId, occurredAt } = identify({ seq: seq + index, chunk });
      if (approvalCards.has(event)) (event['card'] as Record<string, unknown>)['createdAt'] = occurredAt;
      const record = { schemaVersion: 1, conversationId, turnId, eventId, seq: seq + index, occurredAt };
      const terminalEvent = event['type'] === 'done' || event['type'] === 'error';
      const detail = event['type'] === 'tool_result' ? toolResultDetail(event, type) : undefined;
      const merged =
        terminalEvent && turnEnd !== undefined
          ? { ...event, ...placedTurnEnd(turnEnd, event, lost), type: event['type'] }
          : detail !== undefined
            ? // The call's id and name are the chunk's: a part cannot move the result to another call.
              { ...detail, type: 'tool_result', callId: event['callId'], name: event['name'] }
            : event;
      let encoded = encodeChatEnvelope({ ...record, event: merged });
      if (detail !== undefined) readDetail = true;
      // What the turn-end part or the chunk adds that v1 cannot hold never costs the turn its end: it is dropped and reported.
      if (!encoded.ok && merged !== event) {
        encoded = encodeChatEnvelope({ ...record, event });
        const part = detail === undefined ? AI_SDK_TURN_END_PART : AI_SDK_TOOL_RESULT_PART;
        if (encoded.ok) lost.push({ field: part, reason: `its fields do not fit the ${String(event['type'])} event` });
      }
      if (!encoded.ok && event['type'] === 'done' && event['stopReason'] !== undefined) {
        const { stopReason: _stopReason, ...withoutReason } = event;
        encoded = encodeChatEnvelope({ ...record, event: withoutReason });
        if (encoded.ok) lost.push({ field: type === 'finish' ? 'finishReason' : 'reason', reason: 'not a v1 stop reason' });
      }
      if (encoded.ok && merged !== event && detail === undefined) lost.push(...turnEndLost(merged));
      if (!encoded.ok) return refused('invalid-envelope', encoded.message, encoded.issues);
      envelopes.push(encoded.envelope);
    }
    seq += envelopes.length;
    for (const envelope of envelopes) commit(envelope.event);
    const stale = typeof chunk['toolCallId'] === 'string' && type.startsWith('tool-output-') ? chunk['toolCallId'] : undefined;
    if (stale !== undefined && toolResults.delete(stale) && !readDetail) {
      lost.push({ field: AI_SDK_TOOL_RESULT_PART, reason: `its status does not fit the ${type} chunk after it` });
    }
    counts.decoded += 1;
    return { ok: true, envelopes, lost: [...lost, ...dataLost(chunk, type)] };
  }

  // The part's fields for the failed or cancelled result of the same call, when its status agrees with the chunk's.
  function toolResultDetail(event: Readonly<Record<string, unknown>>, type: string): Readonly<Record<string, unknown>> | undefined {
    const detail = toolResults.get(event['callId'] as string);
    if (detail === undefined) return undefined;
    const agrees =
      type === 'tool-output-denied'
        ? detail['status'] === 'cancelled'
        : type === 'tool-output-error' && (detail['status'] === 'failed' || detail['status'] === 'needs-reconciliation');
    return agrees ? detail : undefined;
  }

  // The turn-end fields the terminal event may take: a done awaits only cards this stream asked and left open.
  function placedTurnEnd(
    fields: Readonly<Record<string, unknown>>,
    event: Readonly<Record<string, unknown>>,
    lost: AiSdkLoss[],
  ): Readonly<Record<string, unknown>> {
    const awaiting = fields['awaiting'];
    if (event['type'] !== 'done' || !Array.isArray(awaiting)) return fields;
    const open = awaiting.every((correlationId) => {
      const card = typeof correlationId === 'string' ? cards.get(correlationId) : undefined;
      return card !== undefined && card.own && !card.closed;
    });
    if (open) return fields;
    lost.push({ field: `${AI_SDK_TURN_END_PART}.awaiting`, reason: 'it names a card this stream did not ask or already closed' });
    const { awaiting: _awaiting, ...rest } = fields;
    return rest;
  }

  /**
   * The reducer's refusal of the chunk's events after the envelopes already
   * made, judged before any is made (the tool rules are judged in
   * {@link eventsOf}, which needs the call). Malformed fields are left to the
   * strict encoder, so they are refused as `invalid-envelope`.
   */
  function placementRefusal(events: readonly Record<string, unknown>[]): { code: AiSdkDecodeRefusalCode; message: string } | undefined {
    for (const [index, event] of events.entries()) {
      if (event['type'] === 'user_input' && seq + index !== 1) {
        return { code: 'misplaced-user-input', message: `a user input must be the turn's first envelope, not seq ${seq + index}` };
      }
      if (event['type'] === 'card') {
        const correlationId = (event['card'] as Readonly<Record<string, unknown>>)['correlationId'];
        if (isChatId(correlationId) && cards.has(correlationId)) {
          return { code: 'duplicate-card', message: `card ${correlationId} was already asked` };
        }
      }
      if (event['type'] === 'card_closed' && isChatId(event['correlationId'])) {
        const card = cards.get(event['correlationId']);
        if (card === undefined) return { code: 'unknown-card', message: `no card ${event['correlationId']} in this stream` };
        if (card.closed) return { code: 'card-closed', message: `card ${event['correlationId']} is already closed` };
      }
      if (
        event['type'] === 'state' &&
        typeof event['version'] === 'number' &&
        stateVersion !== undefined &&
        event['version'] <= stateVersion
      ) {
        return { code: 'stale-state', message: `state version ${event['version']} is not after ${stateVersion}` };
      }
    }
    return undefined;
  }

  // State changes happen only once every envelope of the chunk was made.
  function commit(event: ChatEventV1): void {
    switch (event.type) {
      case 'tool_call':
        calls.set(event.callId, { name: event.name, input: event.input, resulted: false });
        return;
      case 'tool_result': {
        const call = calls.get(event.callId);
        if (call !== undefined) call.resulted = true;
        return;
      }
      case 'card':
        cards.set(event.card.correlationId, { own: true, closed: false });
        return;
      case 'card_closed': {
        const card = cards.get(event.correlationId);
        if (card !== undefined) card.closed = true;
        return;
      }
      case 'state':
        stateVersion = event.version;
        return;
      case 'done':
      case 'error':
        terminal = true;
        return;
      default:
        return;
    }
  }

  function eventsOf(
    chunk: Readonly<Record<string, unknown>>,
    type: string,
    lost: AiSdkLoss[],
  ): Record<string, unknown>[] | { code: AiSdkDecodeRefusalCode; message: string } {
    const text = (field: string): string | undefined => (typeof chunk[field] === 'string' ? (chunk[field] as string) : undefined);
    const invalid = (field: string) => ({ code: 'invalid-chunk' as const, message: `a ${type} chunk needs a string ${field}` });
    switch (type) {
      case 'text-delta':
      case 'reasoning-delta': {
        const delta = text('delta');
        if (delta === undefined) return invalid('delta');
        return [{ type: type === 'text-delta' ? 'delta' : 'reasoning', text: delta }];
      }
      case 'tool-input-available':
      case 'tool-input-error': {
        const callId = text('toolCallId');
        const name = text('toolName');
        if (callId === undefined) return invalid('toolCallId');
        if (name === undefined) return invalid('toolName');
        if (calls.has(callId)) return { code: 'duplicate-tool-call', message: `tool call ${callId} was already announced` };
        const call =
          chunk['input'] === undefined ? { type: 'tool_call', callId, name } : { type: 'tool_call', callId, name, input: chunk['input'] };
        if (type === 'tool-input-available') return [call];
        const errorText = text('errorText');
        if (errorText === undefined) return invalid('errorText');
        return [call, { type: 'tool_result', callId, name, status: 'failed', error: errorText }];
      }
      case 'tool-output-available':
      case 'tool-output-error':
      case 'tool-output-denied':
      case 'tool-approval-request': {
        const callId = text('toolCallId');
        if (callId === undefined) return invalid('toolCallId');
        const call = calls.get(callId);
        if (call === undefined) return { code: 'unknown-tool-call', message: `no tool-input-available announced call ${callId}` };
        if (type !== 'tool-approval-request' && call.resulted) {
          return { code: 'duplicate-tool-result', message: `tool call ${callId} already has a result` };
        }
        if (type === 'tool-output-available') {
          if (chunk['preliminary'] === true) return { code: 'unknown-status', message: 'a preliminary tool output states no outcome' };
          return [{ type: 'tool_result', callId, name: call.name, status: 'succeeded', ...outputFields(chunk['output']) }];
        }
        if (type === 'tool-output-error') {
          const errorText = text('errorText');
          if (errorText === undefined) return invalid('errorText');
          return [{ type: 'tool_result', callId, name: call.name, status: 'failed', error: errorText }];
        }
        if (type === 'tool-output-denied') return [{ type: 'tool_result', callId, name: call.name, status: 'cancelled' }];
        const approvalId = text('approvalId');
        if (approvalId === undefined) return invalid('approvalId');
        if (cards.has(approvalId)) return [];
        const event = { type: 'card', card: approvalCard(approvalId, call) };
        approvalCards.add(event);
        return [event];
      }
      case 'tool-approval-response': {
        const approvalId = text('approvalId');
        if (approvalId === undefined) return invalid('approvalId');
        if (typeof chunk['approved'] !== 'boolean')
          return { code: 'invalid-chunk', message: 'a tool-approval-response chunk needs a boolean approved' };
        return [{ type: 'card_closed', correlationId: approvalId, resolution: chunk['approved'] ? 'submitted' : 'declined' }];
      }
      case 'error': {
        // An error is never lost: its text is cut to what v1 holds, and an empty one is named.
        const characters = Array.from(text('errorText') ?? '');
        if (characters.length > CHAT_LIMITS.maxSummaryLength) lost.push({ field: 'errorText', reason: 'cut to the v1 message bound' });
        const message = characters.slice(0, CHAT_LIMITS.maxSummaryLength).join('') || 'stream error';
        return [{ type: 'error', code: AI_SDK_ERROR_CODE, message, retryable: false }];
      }
      case 'finish': {
        const reason = text('finishReason');
        return [reason === undefined ? { type: 'done', status: 'completed' } : { type: 'done', status: 'completed', stopReason: reason }];
      }
      case 'abort': {
        const reason = text('reason');
        return [reason === undefined ? { type: 'done', status: 'cancelled' } : { type: 'done', status: 'cancelled', stopReason: reason }];
      }
    }
    const dataEvent = DATA_EVENTS.get(type);
    if (dataEvent !== undefined) {
      const data = chunk['data'];
      if (!isRecord(data)) return invalid('data object');
      return [dataEvent === 'card' ? { type: 'card', card: data } : { ...data, type: dataEvent }];
    }
    return {
      code: 'unsupported-chunk',
      message: UNSUPPORTED.has(type) ? `a ${type} chunk has no v1 meaning` : `unknown chunk type ${type}`,
    };
  }

  return {
    decode(input) {
      const chunk = readChunk(input);
      if (chunk === undefined) return refused('invalid-chunk', 'a UI message chunk is a JSON object with a string type');
      return decodeChunk(chunk, chunk['type'] as string);
    },
    counts() {
      return { ...counts, refusals: { ...refusals } };
    },
  };
}

const CONTEXT_FIELDS = ['conversationId', 'turnId', 'firstSeq', 'identify', 'awaitingCards'] as const;

function readAwaitingCards(value: unknown): readonly string[] {
  if (value === undefined) return [];
  try {
    if (Array.isArray(value) && value.every((correlationId) => typeof correlationId === 'string')) return [...(value as string[])];
  } catch {
    // A Proxy or a getter in the list: the same TypeError as any other malformed list.
  }
  throw new TypeError('createAiSdkDecoder: awaitingCards must be an array of correlation ids');
}

/**
 * The chunk as its JSON text carries it (a chunk is the parsed JSON of one SSE
 * `data:` line): getters, `toJSON` and Proxy traps run once, here, and every
 * later read is of plain data. `undefined` when it is no JSON object with a
 * string `type`, or cannot be read (a throwing getter, a revoked Proxy, a cycle).
 */
function readChunk(input: unknown): Readonly<Record<string, unknown>> | undefined {
  try {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
    const chunk: unknown = JSON.parse(JSON.stringify(input));
    return isRecord(chunk) && typeof chunk['type'] === 'string' ? chunk : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A tool output shaped as the encoder writes it (`{ summary?, blocks? }`, a
 * string summary, an array of blocks) gives those fields back; any other JSON
 * output is kept whole as one data block.
 */
function outputFields(output: unknown): Record<string, unknown> {
  if (output === undefined) return {};
  if (typeof output === 'object' && output !== null && !Array.isArray(output)) {
    const { summary, blocks, ...others } = output as Record<string, unknown>;
    const shaped = (summary === undefined || typeof summary === 'string') && (blocks === undefined || Array.isArray(blocks));
    if (shaped && Object.keys(others).length === 0) return { ...(output as Record<string, unknown>) };
  }
  return isSafeJson(output) ? { blocks: [{ kind: 'data', data: output }] } : { blocks: output };
}

function approvalCard(approvalId: string, call: { readonly name: string; readonly input: unknown }): Record<string, unknown> {
  const question = `Allow ${call.name}?`;
  const body = call.input === undefined ? [] : [JSON.stringify(call.input)];
  return {
    correlationId: approvalId,
    createdAt: undefined,
    prompt: question,
    presentation: { kind: 'confirm' },
    approval: { title: call.name, question, body },
    allowDecline: true,
  };
}

function lostFields(chunk: Readonly<Record<string, unknown>>, type: string): AiSdkLoss[] {
  const carried = CARRIED.get(type) ?? (type.startsWith('data-') ? DATA_CARRIED : undefined);
  if (carried === undefined) return [];
  return Object.keys(chunk)
    .filter((field) => field !== 'type' && !carried.includes(field) && chunk[field] !== undefined)
    .map((field) => ({ field, reason: `v1 has no place for a ${type} chunk's ${field}` }));
}

function dataLost(chunk: Readonly<Record<string, unknown>>, type: string): AiSdkLoss[] {
  const event = DATA_EVENTS.get(type);
  if (event === undefined || event === 'card' || !isChatEventTypeV1(event)) return [];
  const allowed: readonly string[] = CHAT_EVENT_FIELDS[event];
  return Object.keys(chunk['data'] as object)
    .filter((field) => !allowed.includes(field))
    .map((field) => ({ field: `data.${field}`, reason: `a v1 ${event} event has no ${field}` }));
}

/** Turn-end fields the terminal event does not have (the strict encoder drops them). */
function turnEndLost(event: Readonly<Record<string, unknown>>): AiSdkLoss[] {
  const type = event['type'] as 'done' | 'error';
  const allowed: readonly string[] = CHAT_EVENT_FIELDS[type];
  return Object.keys(event)
    .filter((field) => !allowed.includes(field))
    .map((field) => ({ field: `${AI_SDK_TURN_END_PART}.${field}`, reason: `a v1 ${type} event has no ${field}` }));
}
