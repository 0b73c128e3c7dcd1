/**
 * The control frames Papercusp's SSE server (`@papercusp/sse`) writes around
 * every dialect: heartbeats, comments, `retry:` hints and the `resync` event.
 * None is part of the resumable log (no id), none becomes an envelope. This
 * module writes them for a host serving un-migrated readers, and reads the two
 * an SSE parser hands over outside its messages (comments, retry hints).
 */
import { isCleanText, isSafeJson, type ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { parseLegacyLastEventId } from './legacy-last-event-id.js';

/**
 * A control frame as `@papercusp/sse` writes it:
 * - `heartbeat`: `event: heartbeat` `data: {"tsMs":…}`, at open and on a timer;
 * - `comment`: `: <text>` (its `comment()`), invisible to `EventSource` listeners;
 * - `retry`: `retry: <ms>`, the reconnection delay hint of the SSE spec;
 * - `resync`: `event: resync` `data: {"reason","fromId","floorId","maxId"}`, when a
 *   resuming client's `Last-Event-ID` cannot be replayed (`gap`: evicted;
 *   `ahead`: past the source's newest id, after a restart).
 */
export type LegacyControlFrame =
  | { readonly kind: 'heartbeat'; readonly tsMs: number }
  | { readonly kind: 'comment'; readonly text: string }
  | { readonly kind: 'retry'; readonly retryMs: number }
  | {
      readonly kind: 'resync';
      readonly reason: 'gap' | 'ahead';
      readonly fromId: number;
      readonly floorId: number;
      readonly maxId: number;
    };

/** Refusal codes of {@link encodeLegacyControlFrame}. */
export type EncodeLegacyControlFrameRefusalCode = 'invalid-control-frame';

/** Result of {@link encodeLegacyControlFrame}: the SSE text of the frame. */
export type EncodeLegacyControlFrameResult = { readonly ok: true; readonly sse: string } | ChatRefusal<EncodeLegacyControlFrameRefusalCode>;

/** A comment or retry hint as an SSE parser reports it (eventsource-parser's `onComment`, `onRetry`), read by a frame decoder. */
export type LegacyControlMessage =
  | { readonly ok: true; readonly kind: 'control'; readonly control: 'comment'; readonly text: string }
  | { readonly ok: true; readonly kind: 'control'; readonly control: 'retry'; readonly retryMs: number };

// A non-negative safe integer number: the rule a numeric Last-Event-ID follows.
const isCount = (value: unknown): value is number => typeof value === 'number' && parseLegacyLastEventId(value) !== null;

/**
 * Writes a control frame exactly as `@papercusp/sse` does, without an `id:`
 * line (control frames are not part of the resumable log, so a reader's
 * `Last-Event-ID` never moves on one). The frames decode back as what the
 * server's own do: a heartbeat is transport, a resync is `resync-required`,
 * and an SSE parser consumes comments and retry hints (a frame decoder counts
 * them as transport when the host passes them on).
 *
 * `invalid-control-frame` when `control` is not one of {@link LegacyControlFrame}:
 * counts and times that are not non-negative safe integers, a comment that is
 * not clean single-line text (a line break would end the comment and start a
 * field), a resync reason other than `gap`/`ahead`. Never throws.
 */
export function encodeLegacyControlFrame(control: unknown): EncodeLegacyControlFrameResult {
  let fields: Record<string, unknown>;
  try {
    // Read once, as JSON would: a getter runs once, a Proxy or cycle cannot throw past here.
    fields = isSafeJson(control) && typeof control === 'object' && control !== null ? { ...(control as Record<string, unknown>) } : {};
  } catch {
    fields = {};
  }
  const { kind } = fields;
  const keys = Object.keys(fields).sort().join(',');
  if (kind === 'heartbeat' && keys === 'kind,tsMs' && isCount(fields['tsMs'])) {
    return { ok: true, sse: `event: heartbeat\ndata: ${JSON.stringify({ tsMs: fields['tsMs'] })}\n\n` };
  }
  if (
    kind === 'comment' &&
    keys === 'kind,text' &&
    typeof fields['text'] === 'string' &&
    isCleanText(fields['text']) &&
    !/[\r\n]/.test(fields['text'])
  ) {
    return { ok: true, sse: `: ${fields['text']}\n\n` };
  }
  if (kind === 'retry' && keys === 'kind,retryMs' && isCount(fields['retryMs'])) {
    return { ok: true, sse: `retry: ${fields['retryMs']}\n\n` };
  }
  if (
    kind === 'resync' &&
    keys === 'floorId,fromId,kind,maxId,reason' &&
    (fields['reason'] === 'gap' || fields['reason'] === 'ahead') &&
    isCount(fields['fromId']) &&
    isCount(fields['floorId']) &&
    isCount(fields['maxId'])
  ) {
    const data = { reason: fields['reason'], fromId: fields['fromId'], floorId: fields['floorId'], maxId: fields['maxId'] };
    return { ok: true, sse: `event: resync\ndata: ${JSON.stringify(data)}\n\n` };
  }
  return refuse(
    'invalid-control-frame',
    'expected { kind: heartbeat, tsMs } | { kind: comment, text } | { kind: retry, retryMs } | { kind: resync, reason, fromId, floorId, maxId }',
  );
}

/**
 * A comment (`{ comment }`) or retry hint (`{ retry }`) as an SSE parser reports
 * it, or `undefined` for anything else (a message, which has `data`). Only
 * own, readable fields count; the caller has read the frame safely before.
 */
export function readControlMessage(input: Readonly<Record<string, unknown>>): LegacyControlMessage | 'invalid' | undefined {
  const has = (key: string) => Object.prototype.hasOwnProperty.call(input, key);
  if (has('data') || (!has('comment') && !has('retry'))) return undefined;
  const keys = Object.keys(input);
  if (keys.length !== 1) return 'invalid';
  const comment = input['comment'];
  if (typeof comment === 'string')
    return isCleanText(comment) && !/[\r\n]/.test(comment) ? { ok: true, kind: 'control', control: 'comment', text: comment } : 'invalid';
  const retry = input['retry'];
  return isCount(retry) ? { ok: true, kind: 'control', control: 'retry', retryMs: retry } : 'invalid';
}
