/**
 * Checking an SSE capture against the v1 contract: the messages are decoded by
 * `eventsource-parser` (never by hand), each is read with core's strict parsers,
 * and the envelopes are checked per turn and folded through `applyChatEvent`.
 * It owns no I/O: text comes in (whole or in chunks), a report comes out, and
 * nothing in it throws on any input: options it cannot use are an
 * `invalid-options` violation, a chunk that is not text `invalid-capture`.
 * One problem is reported once.
 */
import {
  applyChatEvent,
  canonicalJson,
  createChatState,
  isChatId,
  parseChatEnvelope,
  parseChatSseMessage,
  type ChatEventEnvelope,
  type ChatStateV1,
} from '@papercusp/chat-protocol-core';
import {
  createChatFrameDecoder,
  papercup,
  scout,
  type LegacyCallIdRequest,
  type LegacyDialect,
} from '@papercusp/chat-protocol-legacy-adapter';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** Every rule a capture can break, in the order the checks run. Closed: a new rule is a new minor version. */
export const CHAT_CAPTURE_RULES = [
  'invalid-options',
  'invalid-capture',
  'invalid-sse-line',
  'unterminated-frame',
  'unparseable-frame',
  'event-mismatch',
  'id-mismatch',
  'foreign-conversation',
  'conflicting-duplicate',
  'turn-terminal',
  'seq-gap',
  'seq-out-of-order',
  'misplaced-user-input',
  'unknown-tool-call',
  'tool-name-mismatch',
  'duplicate-tool-call',
  'duplicate-tool-result',
  'unknown-card',
  'duplicate-card',
  'card-closed',
  'card-not-awaiting',
  'stale-state',
] as const;

/** A rule of the v1 contract a capture breaks; see {@link CHAT_CAPTURE_RULES}. */
export type ChatCaptureRule = (typeof CHAT_CAPTURE_RULES)[number];

/** The legacy dialects a capture can be checked in: the adapter's built-in ones. */
export const CHAT_CAPTURE_DIALECTS = ['papercup', 'scout'] as const;

/** A built-in legacy dialect name. */
export type ChatCaptureDialect = (typeof CHAT_CAPTURE_DIALECTS)[number];

/** One broken rule. Position fields are present only when known. */
export interface ChatCaptureViolation {
  readonly rule: ChatCaptureRule;
  /** One line for a person, without the rule name. */
  readonly message: string;
  /** The 1-based number of the SSE message in the capture. */
  readonly frame?: number;
  /** The envelope's turn, when the frame is (or holds) an envelope. */
  readonly turnId?: string;
  /** The envelope's seq, when the frame is (or holds) an envelope. */
  readonly seq?: number;
  /** The envelope's event id, when the frame is (or holds) an envelope. */
  readonly eventId?: string;
}

/** What {@link verifyChatCapture} found. `ok` is true exactly when there is no violation. */
export interface ChatCaptureReport {
  readonly ok: boolean;
  /** SSE messages read (comments and heartbeats are not messages). */
  readonly frames: number;
  /** Distinct turns the envelopes named. */
  readonly turns: number;
  /** In capture order. */
  readonly violations: readonly ChatCaptureViolation[];
}

/** How to read a capture. */
export interface VerifyChatCaptureOptions {
  /**
   * The conversation the capture must belong to. v1 captures default to the
   * conversation of their first envelope; legacy captures to `conv_legacy`.
   */
  readonly conversationId?: string | undefined;
  /**
   * Read the capture as this legacy dialect through the legacy adapter's frame
   * decoder (v1 envelopes on the same connection still pass). Its refusals are
   * `unparseable-frame` violations, naming the adapter's code.
   */
  readonly legacy?: ChatCaptureDialect | undefined;
  /** The turn legacy frames belong to (default `turn_legacy`). */
  readonly turnId?: string | undefined;
}

/** An incremental verifier, for a capture that arrives in chunks. */
export interface ChatCaptureVerifier {
  /** Feeds the next chunk of SSE text; chunks may split anywhere. Never throws. */
  push(chunk: string): void;
  /** Ends the capture and returns the report. Later calls return the same report. */
  end(): ChatCaptureReport;
}

const DEFAULT_LEGACY_CONVERSATION = 'conv_legacy';
const DEFAULT_LEGACY_TURN = 'turn_legacy';
// Legacy frames carry no time; a fixed start plus one second per seq keeps the report deterministic.
const LEGACY_EPOCH_MS = Date.UTC(2000, 0, 1);

// What the per-turn checks remember about one turn.
interface TurnMemory {
  highestSeq: number;
  terminal: { readonly seq: number; readonly type: string } | undefined;
  // seq → the canonical form of the envelope delivered there.
  readonly bySeq: Map<number, string>;
  // How many envelopes of this turn the fold applied: the fold's own seq.
  folded: number;
}

/**
 * Creates a verifier for one capture. Chunks go through `eventsource-parser`;
 * each message is checked as it completes, so a live stream is checked as it
 * arrives. The same chunks in any split give the same report.
 */
export function createChatCaptureVerifier(given: VerifyChatCaptureOptions = {}): ChatCaptureVerifier {
  const violations: ChatCaptureViolation[] = [];
  const turns = new Map<string, TurnMemory>();
  // event id → where it was delivered.
  const eventIds = new Map<string, { readonly turnId: string; readonly seq: number }>();
  const options = readOptions(given);
  if (typeof options === 'string') return refusedVerifier({ rule: 'invalid-options', message: options });
  let conversationId = options.conversationId;
  let state: ChatStateV1 | undefined;
  let frames = 0;
  let report: ChatCaptureReport | undefined;

  const violate = (violation: ChatCaptureViolation) => {
    violations.push(violation);
  };

  const checkEnvelope = (frame: number, envelope: ChatEventEnvelope) => {
    const { turnId, seq, eventId } = envelope;
    const at = { frame, turnId, seq, eventId };
    if (conversationId === undefined) conversationId = envelope.conversationId;
    if (envelope.conversationId !== conversationId) {
      violate({
        rule: 'foreign-conversation',
        message: `conversation ${envelope.conversationId}, not the capture's ${conversationId}`,
        ...at,
      });
      return;
    }
    let turn = turns.get(turnId);
    if (turn === undefined) {
      turn = { highestSeq: 0, terminal: undefined, bySeq: new Map(), folded: 0 };
      turns.set(turnId, turn);
    }
    const canonical = canonicalJson(envelope);
    const atSeq = turn.bySeq.get(seq);
    if (atSeq !== undefined) {
      // A redelivery: fine when identical, one violation when not; never checked twice.
      if (atSeq !== canonical) {
        violate({ rule: 'conflicting-duplicate', message: `seq ${seq} of turn ${turnId} was delivered before with other content`, ...at });
      }
      return;
    }
    const earlier = eventIds.get(eventId);
    if (earlier !== undefined) {
      violate({
        rule: 'conflicting-duplicate',
        message: `event id ${eventId} was delivered before as seq ${earlier.seq} of turn ${earlier.turnId}`,
        ...at,
      });
      return;
    }
    turn.bySeq.set(seq, canonical);
    eventIds.set(eventId, { turnId, seq });
    if (turn.terminal !== undefined) {
      violate({
        rule: 'turn-terminal',
        message: `${envelope.event.type} after the turn ended with ${turn.terminal.type} at seq ${turn.terminal.seq}`,
        ...at,
      });
      return;
    }
    if (seq > turn.highestSeq + 1) {
      const missing =
        seq === turn.highestSeq + 2 ? `seq ${turn.highestSeq + 1} is missing` : `seqs ${turn.highestSeq + 1}–${seq - 1} are missing`;
      violate({ rule: 'seq-gap', message: `expected seq ${turn.highestSeq + 1} of turn ${turnId}, got ${seq}: ${missing}`, ...at });
    } else if (seq <= turn.highestSeq) {
      violate({ rule: 'seq-out-of-order', message: `seq ${seq} of turn ${turnId} arrived after seq ${turn.highestSeq}`, ...at });
    }
    turn.highestSeq = Math.max(turn.highestSeq, seq);
    if (envelope.event.type === 'done' || envelope.event.type === 'error') turn.terminal = { seq, type: envelope.event.type };
    fold(turn, envelope, at);
  };

  // The reducer's content rules (tools, cards, state). The checks above already
  // judged seqs, duplicates and terminals, so the fold numbers the turn's new
  // envelopes itself: a gap reported once does not refuse every frame after it.
  const fold = (turn: TurnMemory, envelope: ChatEventEnvelope, at: Omit<ChatCaptureViolation, 'rule' | 'message'>) => {
    const current = state ?? createChatState(envelope.conversationId);
    const applied = applyChatEvent(current, { ...envelope, seq: turn.folded + 1 });
    if (applied.ok) {
      state = applied.state;
      turn.folded++;
      return;
    }
    // Only the content rules (tools, cards, state) can refuse here: the checks above filter the rest.
    // Every reducer code is a rule of the same name, which the compiler checks on this line, but the
    // reducer's own field guards (`unknown-event`, `invalid-event`, `invalid-envelope`): the base parser
    // read every frame, so what they refuse (a product event) was already refused there as unparseable.
    const unparseable = applied.code === 'unknown-event' || applied.code === 'invalid-event' || applied.code === 'invalid-envelope';
    violate({ rule: unparseable ? 'unparseable-frame' : applied.code, message: applied.message, ...at });
  };

  const legacyDecoder = options.legacy === undefined ? undefined : legacyDecoderFor(options.legacy, options);
  if (legacyDecoder !== undefined) conversationId = options.conversationId ?? DEFAULT_LEGACY_CONVERSATION;

  let ending = false;
  const onMessage = (message: EventSourceMessage) => {
    if (ending) {
      // Only the blank line `end()` adds dispatched it: the capture stopped
      // inside this message, and an EventSource drops such a message unread.
      violate({
        rule: 'unterminated-frame',
        message: 'the capture ends inside this message (no blank line after it), so a client drops it',
        ...positionOf(frames + 1, message.data),
      });
      return;
    }
    frames++;
    const frame = frames;
    if (legacyDecoder !== undefined) {
      const result = legacyDecoder.decode(message);
      if (!result.ok) {
        const rule: ChatCaptureRule =
          result.code === 'event-mismatch' || result.code === 'id-mismatch' || result.code === 'foreign-conversation'
            ? result.code
            : 'unparseable-frame';
        violate({
          rule,
          message: rule === 'unparseable-frame' ? `${result.code}: ${result.message}` : result.message,
          ...positionOf(frame, message.data),
        });
      } else if (result.kind === 'envelope') {
        checkEnvelope(frame, result.envelope);
      }
      return;
    }
    const read = readV1Message(message);
    if (read.envelope === undefined) {
      violate({ rule: 'unparseable-frame', message: read.refusal, frame });
      return;
    }
    for (const mismatch of read.mismatches) violate({ ...mismatch, ...positionOf(frame, read.envelope) });
    checkEnvelope(frame, read.envelope);
  };

  const parser = createParser({
    onEvent: onMessage,
    onError: (error) => violate({ rule: 'invalid-sse-line', message: error.message, frame: frames + 1 }),
  });

  return {
    push(chunk) {
      if (report !== undefined) return;
      if (typeof chunk === 'string') parser.feed(chunk);
      else
        violate({
          rule: 'invalid-capture',
          message: `a chunk of the capture is a ${describeType(chunk)}, not text; it was not read`,
          frame: frames + 1,
        });
    },
    end() {
      if (report !== undefined) return report;
      ending = true;
      parser.feed('\n\n');
      report = { ok: violations.length === 0, frames, turns: turns.size, violations: violations.slice() };
      return report;
    },
  };
}

/**
 * Checks a whole SSE capture against the v1 contract and returns every
 * violation, in capture order, each once. Never throws, whatever the text.
 *
 * ```ts
 * const report = verifyChatCapture(readFileSync('capture.sse', 'utf8'));
 * if (!report.ok) for (const v of report.violations) console.log(v.seq, v.rule, v.message);
 * ```
 */
export function verifyChatCapture(text: string, options: VerifyChatCaptureOptions = {}): ChatCaptureReport {
  const verifier = createChatCaptureVerifier(options);
  verifier.push(text);
  return verifier.end();
}

// Options are read once, and must be what the contract says: a typo in
// `legacy` is refused, never read as papercup.
function readOptions(options: unknown): VerifyChatCaptureOptions | string {
  let conversationId: unknown;
  let legacy: unknown;
  let turnId: unknown;
  try {
    ({ conversationId, legacy, turnId } = options as VerifyChatCaptureOptions);
  } catch {
    return 'the options cannot be read; expected { conversationId?, legacy?, turnId? }';
  }
  if (conversationId !== undefined && !isChatId(conversationId)) return 'conversationId: expected a v1 id';
  if (turnId !== undefined && !isChatId(turnId)) return 'turnId: expected a v1 id';
  if (legacy !== undefined && !(CHAT_CAPTURE_DIALECTS as readonly unknown[]).includes(legacy)) {
    return `legacy: expected one of ${CHAT_CAPTURE_DIALECTS.join(', ')}`;
  }
  return {
    ...(conversationId === undefined ? {} : { conversationId }),
    ...(legacy === undefined ? {} : { legacy: legacy as ChatCaptureDialect }),
    ...(turnId === undefined ? {} : { turnId }),
  };
}

// A verifier for options it refused: the one violation, and nothing read.
function refusedVerifier(violation: ChatCaptureViolation): ChatCaptureVerifier {
  const report: ChatCaptureReport = { ok: false, frames: 0, turns: 0, violations: [violation] };
  return {
    push() {},
    end: () => report,
  };
}

// By `typeof` only: `Array.isArray` throws on a revoked Proxy.
function describeType(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

type Mismatch = { readonly rule: 'event-mismatch' | 'id-mismatch'; readonly message: string };
type ReadV1 =
  | { readonly envelope: ChatEventEnvelope; readonly mismatches: readonly Mismatch[] }
  | { readonly envelope: undefined; readonly refusal: string };

// Core's parseChatSseMessage reports the first disagreement only; a frame whose
// envelope is valid is still checked and folded, so both mismatches are asked for.
function readV1Message(message: EventSourceMessage): ReadV1 {
  const checked = parseChatSseMessage(message);
  if (checked.ok) return { envelope: checked.value, mismatches: [] };
  if (checked.code !== 'event-mismatch' && checked.code !== 'id-mismatch') {
    return { envelope: undefined, refusal: `${checked.code}: ${checked.message}` };
  }
  const parsed = parseChatEnvelope(message.data);
  if (!parsed.ok) return { envelope: undefined, refusal: `${parsed.code}: ${parsed.message}` };
  const mismatches: Mismatch[] = [{ rule: checked.code, message: checked.message }];
  if (checked.code === 'event-mismatch') {
    const idCheck = parseChatSseMessage({ data: message.data, event: parsed.value.event.type, id: message.id });
    if (!idCheck.ok && idCheck.code === 'id-mismatch') mismatches.push({ rule: 'id-mismatch', message: idCheck.message });
  }
  return { envelope: parsed.value, mismatches };
}

// Where a violation is: the frame, and the envelope's position when the data is one.
function positionOf(frame: number, source: string | ChatEventEnvelope): Omit<ChatCaptureViolation, 'rule' | 'message'> {
  let envelope: ChatEventEnvelope | undefined;
  if (typeof source === 'string') {
    const parsed = parseChatEnvelope(source);
    envelope = parsed.ok ? parsed.value : undefined;
  } else {
    envelope = source;
  }
  return envelope === undefined ? { frame } : { frame, turnId: envelope.turnId, seq: envelope.seq, eventId: envelope.eventId };
}

function legacyDecoderFor(dialect: ChatCaptureDialect, options: VerifyChatCaptureOptions) {
  const turnId = options.turnId ?? DEFAULT_LEGACY_TURN;
  // A stable call identity for tool frames without one: a call gets an id from
  // its seq, a result the id of the oldest unanswered call of the same tool.
  const openCalls = new Map<string, string[]>();
  const callId = ({ type, name, seq }: LegacyCallIdRequest): string | undefined => {
    const queue = openCalls.get(name) ?? [];
    openCalls.set(name, queue);
    if (type === 'tool_result') return queue.shift();
    const id = `${turnId}.call_${seq}`;
    queue.push(id);
    return id;
  };
  return createChatFrameDecoder({
    dialect: (dialect === 'scout' ? scout : papercup) as LegacyDialect,
    context: {
      conversationId: options.conversationId ?? DEFAULT_LEGACY_CONVERSATION,
      turnId,
      identify: ({ seq }) => ({ eventId: `${turnId}.evt_${seq}`, occurredAt: new Date(LEGACY_EPOCH_MS + seq * 1000).toISOString() }),
      callId,
    },
  });
}
