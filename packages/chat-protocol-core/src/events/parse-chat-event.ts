/**
 * The legacy, unversioned chat event union and its tolerant reader
 * `parseChatEvent`, kept with the behaviour existing callers rely on, plus its
 * three channel lists. It owns reading one already-parsed SSE frame into a
 * typed legacy event. It refuses to validate more than it always did (that is
 * the v1 parser's job) and to upgrade frames (that is the legacy adapter's).
 */
import { hasOwn } from '../primitives/primitives.js';

/** `session`: the host names the session this stream belongs to. */
export interface LegacySessionEvent {
  readonly type: 'session';
  readonly sessionId: string;
}

/** `delta`: one streamed text fragment; consumers append `text` (possibly empty). */
export interface LegacyDeltaEvent {
  readonly type: 'delta';
  readonly text: string;
}

/** `tool_call`: the model invoked a tool; `input` is passed through unchecked. */
export interface LegacyToolCallEvent {
  readonly type: 'tool_call';
  readonly name: string;
  readonly input?: unknown;
  readonly callId?: string;
}

/** `tool_result`: the tool returned; `ok: false` marks a failure the turn survived, absent means not reported. */
export interface LegacyToolResultEvent {
  readonly type: 'tool_result';
  readonly name: string;
  readonly callId?: string;
  readonly ok?: boolean;
  readonly summary?: string;
}

/** `provenance`: the engine and model that actually run the turn. */
export interface LegacyProvenanceEvent {
  readonly type: 'provenance';
  readonly engine: string;
  readonly model: string;
  readonly accountRoute?: string | null;
}

/**
 * A legacy open card as it travels: only `correlationId` and `prompt` are
 * checked; every other member is passed through as the producer sent it.
 */
export interface LegacyCardSnapshot {
  readonly correlationId: string;
  readonly prompt: string;
  readonly [key: string]: unknown;
}

/** `card`: the model asks the user; the card object is the producer's, passed through. */
export interface LegacyCardEvent {
  readonly type: 'card';
  readonly card: LegacyCardSnapshot;
}

/** `card_closed`: the card with this correlation id is no longer open. */
export interface LegacyCardClosedEvent {
  readonly type: 'card_closed';
  readonly correlationId: string;
}

/** `state`: host state, last write wins; `snapshot` is passed through unchecked and absent when not sent. */
export interface LegacyStateEvent {
  readonly type: 'state';
  readonly version: number;
  readonly snapshot?: unknown;
}

/** Token usage on a legacy `done`: an object passed through unchecked, so its members are `unknown`. */
export type LegacyChatUsage = Readonly<Record<string, unknown>>;

/** `done`: the turn ended; `stopReason` is emitter-defined. */
export interface LegacyDoneEvent {
  readonly type: 'done';
  readonly stopReason?: string;
  readonly usage?: LegacyChatUsage;
}

/** `error`: the stream failed; `message` is always present. */
export interface LegacyErrorEvent {
  readonly type: 'error';
  readonly message: string;
}

/** `navigate`: the assistant asks the client to go to `href`; fire-once, never replayed. */
export interface LegacyNavigateEvent {
  readonly type: 'navigate';
  readonly href: string;
}

/** The unversioned (legacy0) chat event union, discriminated by `type`. */
export type LegacyChatEvent =
  | LegacySessionEvent
  | LegacyDeltaEvent
  | LegacyToolCallEvent
  | LegacyToolResultEvent
  | LegacyProvenanceEvent
  | LegacyCardEvent
  | LegacyCardClosedEvent
  | LegacyStateEvent
  | LegacyDoneEvent
  | LegacyErrorEvent
  | LegacyNavigateEvent;

/** The name existing callers use for {@link LegacyChatEvent}. */
export type ChatEvent = LegacyChatEvent;

/** A legacy event type name. */
export type ChatEventType = LegacyChatEvent['type'];

/** Event-channel types: append-only history, the only ones safe to replay on reconnect. */
export const EVENT_CHANNEL_TYPES = [
  'session',
  'delta',
  'tool_call',
  'tool_result',
  'provenance',
  'done',
  'error',
] as const satisfies readonly ChatEventType[];

/** State-channel types: last write wins; re-sent as a snapshot, never replayed as history. */
export const STATE_CHANNEL_TYPES = ['card', 'card_closed', 'state'] as const satisfies readonly ChatEventType[];

/** Transient-channel types: fire-once actions, never replayed (replaying would re-fire them). */
export const TRANSIENT_CHANNEL_TYPES = ['navigate'] as const satisfies readonly ChatEventType[];

const EVENT_CHANNEL: ReadonlySet<unknown> = /* @__PURE__ */ new Set<unknown>(EVENT_CHANNEL_TYPES);
const STATE_CHANNEL: ReadonlySet<unknown> = /* @__PURE__ */ new Set<unknown>(STATE_CHANNEL_TYPES);
const ALL_TYPES: ReadonlySet<unknown> = /* @__PURE__ */ (() =>
  new Set<unknown>([...EVENT_CHANNEL_TYPES, ...STATE_CHANNEL_TYPES, ...TRANSIENT_CHANNEL_TYPES]))();

/**
 * True when `type` is on the last-write-wins state channel (`card`,
 * `card_closed`, `state`). False for every other value; never throws.
 */
export function isStateChannelEvent(type: ChatEventType): boolean {
  return STATE_CHANNEL.has(type);
}

/**
 * True when an event of `type` may be replayed as history on reconnect: the
 * event channel only. State events are re-sent as a snapshot, and transient
 * events (`navigate`) never; so `!isStateChannelEvent(type)` is not a replay
 * gate. False for every other value; never throws.
 */
export function isReplayableEvent(type: ChatEventType): boolean {
  return EVENT_CHANNEL.has(type);
}

/**
 * True when `value` is exactly one of the eleven legacy event type names.
 * Never reads properties of `value` (`"__proto__"`, `"toString"` are false);
 * never throws.
 */
export function isChatEventType(value: unknown): value is ChatEventType {
  return ALL_TYPES.has(value);
}

// The legacy notion of an object: anything non-null and not an array. Arrays,
// null and primitives read as "no fields".
function isObjectRecord(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Own properties only: a polluted Object.prototype must not supply a field.
function readOwn(record: object | null, key: string): unknown {
  if (record === null || !hasOwn(record, key)) return undefined;
  return (record as Record<string, unknown>)[key];
}

function isLegacyCardSnapshot(value: unknown): value is LegacyCardSnapshot {
  return isObjectRecord(value) && typeof readOwn(value, 'correlationId') === 'string' && typeof readOwn(value, 'prompt') === 'string';
}

/**
 * Reads one received legacy SSE frame into a {@link LegacyChatEvent}, or `null`.
 *
 * `eventName` is the SSE `event:` line; `data` the already-parsed JSON of its
 * `data:` line. Guarantees (DESIGN §3.8): an unknown or retired name gives
 * `null`; data that is not a non-array object is read as `{}`; a string `type`
 * in the data that differs from `eventName` gives `null`, and the result's
 * `type` is always `eventName`. Each member's required field is checked and its
 * optional fields are kept only under their rules; no key ever holds
 * `undefined`. The result is a fresh object (only `card.card`, `input`, `usage`
 * and `snapshot` are the producer's values, passed through). Only own
 * properties are read, and data whose reading throws (a getter, a Proxy) gives
 * `null`. `navigate.href` is not vetted: a host checks it before following it.
 * Never throws and never writes to `data` or any prototype.
 */
export function parseChatEvent(eventName: string, data: unknown): LegacyChatEvent | null {
  if (!isChatEventType(eventName)) return null;
  try {
    return readEvent(eventName, isObjectRecord(data) ? data : null);
  } catch {
    return null;
  }
}

function readEvent(type: ChatEventType, record: object | null): LegacyChatEvent | null {
  const declaredType = readOwn(record, 'type');
  if (typeof declaredType === 'string' && declaredType !== type) return null;
  switch (type) {
    case 'session': {
      const sessionId = readOwn(record, 'sessionId');
      return typeof sessionId === 'string' ? { type, sessionId } : null;
    }
    case 'delta': {
      const text = readOwn(record, 'text');
      return typeof text === 'string' ? { type, text } : null;
    }
    case 'tool_call': {
      const name = readOwn(record, 'name');
      if (typeof name !== 'string' || name === '') return null;
      const input = readOwn(record, 'input');
      const callId = readOwn(record, 'callId');
      return {
        type,
        name,
        ...(input !== undefined ? { input } : {}),
        ...(typeof callId === 'string' ? { callId } : {}),
      };
    }
    case 'tool_result': {
      const name = readOwn(record, 'name');
      if (typeof name !== 'string' || name === '') return null;
      const callId = readOwn(record, 'callId');
      const ok = readOwn(record, 'ok');
      const summary = readOwn(record, 'summary');
      return {
        type,
        name,
        ...(typeof callId === 'string' ? { callId } : {}),
        ...(typeof ok === 'boolean' ? { ok } : {}),
        ...(typeof summary === 'string' ? { summary } : {}),
      };
    }
    case 'provenance': {
      const engine = readOwn(record, 'engine');
      const model = readOwn(record, 'model');
      if (typeof engine !== 'string' || typeof model !== 'string') return null;
      const accountRoute = readOwn(record, 'accountRoute');
      return {
        type,
        engine,
        model,
        ...(typeof accountRoute === 'string' || accountRoute === null ? { accountRoute } : {}),
      };
    }
    case 'card': {
      const card = readOwn(record, 'card');
      return isLegacyCardSnapshot(card) ? { type, card } : null;
    }
    case 'card_closed': {
      const correlationId = readOwn(record, 'correlationId');
      return typeof correlationId === 'string' ? { type, correlationId } : null;
    }
    case 'state': {
      const version = readOwn(record, 'version');
      const snapshot = readOwn(record, 'snapshot');
      return {
        type,
        version: typeof version === 'number' ? version : 0,
        ...(snapshot !== undefined ? { snapshot } : {}),
      };
    }
    case 'done': {
      const stopReason = readOwn(record, 'stopReason');
      const usage = readOwn(record, 'usage');
      return {
        type,
        ...(typeof stopReason === 'string' ? { stopReason } : {}),
        ...(isObjectRecord(usage) ? { usage: usage as LegacyChatUsage } : {}),
      };
    }
    case 'error': {
      const message = readOwn(record, 'message');
      return { type, message: typeof message === 'string' ? message : 'stream error' };
    }
    case 'navigate': {
      const href = readOwn(record, 'href');
      return typeof href === 'string' ? { type, href } : null;
    }
  }
}
