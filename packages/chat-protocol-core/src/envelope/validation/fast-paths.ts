/**
 * The straight-line checks: the envelope frame, and the events most streams
 * are made of (text deltas and reasoning, tool results with text blocks), held
 * to every rule of their tables without the tables' generic walk. Each is true
 * only when its value is valid; anything it was not written for (a data block,
 * a field added later) makes it false and goes to the rule tables, which
 * decide. So they can make a valid event cheaper, never an invalid one
 * acceptable; `contract-fields.test.ts` checks they still take every generated one.
 */
import { CHAT_LIMITS } from '../../primitives/limits.js';
import { TOOL_RESULT_STATUSES } from '../../events/event-vocabulary.js';
import { isChatId, isCleanText, isSeq, isWellFormedText, isZonedTimestamp } from '../../primitives/primitives.js';
import { areFrameIds } from './frame-id-memo.js';
import { countKeys, isJsonObject } from './rules.js';

/** A string of `min`–`max` code units that is clean text (well-formed only, for screened text). */
function isTextOf(value: unknown, min: number, max: number, screened: boolean): boolean {
  return (
    typeof value === 'string' && value.length >= min && value.length <= max && (screened ? isWellFormedText(value) : isCleanText(value))
  );
}

/** A `delta` or `reasoning` event (its `type` already read): `{ type, text }` with clean text. */
export function isPlainTextEvent(event: Record<string, unknown>, screened: boolean): boolean {
  return isTextOf(event['text'], 0, CHAT_LIMITS.maxTextLength, screened) && countKeys(event) === 2;
}

/** A `tool_result` event (its `type` already read) whose blocks are all text blocks. */
export function isPlainToolResult(event: Record<string, unknown>, screened: boolean): boolean {
  const { callId, name, status, summary, blocks, error } = event;
  let keys = 4;
  if (
    !isChatId(callId) ||
    !isTextOf(name, 1, CHAT_LIMITS.maxNameLength, screened) ||
    !(TOOL_RESULT_STATUSES as readonly unknown[]).includes(status)
  ) {
    return false;
  }
  if (summary !== undefined) {
    keys++;
    if (!isTextOf(summary, 0, CHAT_LIMITS.maxSummaryLength, screened)) return false;
  }
  if (error !== undefined) {
    keys++;
    if (!isTextOf(error, 0, CHAT_LIMITS.maxSummaryLength, screened)) return false;
  }
  if (blocks !== undefined) {
    keys++;
    if (!Array.isArray(blocks) || blocks.length > CHAT_LIMITS.maxBlocks) return false;
    for (let index = 0; index < blocks.length; index++) {
      if (!isPlainTextBlock(blocks[index], screened)) return false;
    }
  }
  return countKeys(event) === keys;
}

function isPlainTextBlock(block: unknown, screened: boolean): boolean {
  if (!isJsonObject(block) || block['kind'] !== 'text') return false;
  const { text, sources } = block;
  if (!isTextOf(text, 0, CHAT_LIMITS.maxTextLength, screened)) return false;
  if (sources === undefined) return countKeys(block) === 2;
  if (!Array.isArray(sources) || sources.length > CHAT_LIMITS.maxSources) return false;
  for (let index = 0; index < sources.length; index++) {
    const source: unknown = sources[index];
    if (!isJsonObject(source) || !isTextOf(source['ref'], 1, CHAT_LIMITS.maxRefLength, screened)) return false;
    const label = source['label'];
    if (label === undefined) {
      if (countKeys(source) !== 1) return false;
    } else if (!isTextOf(label, 1, CHAT_LIMITS.maxNameLength, screened) || countKeys(source) !== 2) {
      return false;
    }
  }
  return countKeys(block) === 3;
}

/** The envelope frame around the event: `schemaVersion` 1, ids, seq and timestamp, and no other key. */
export function isEnvelopeFrame(value: Record<string, unknown>): boolean {
  if (!areFrameIds(value['conversationId'], value['turnId'])) return false;
  return (
    value['schemaVersion'] === 1 &&
    isChatId(value['eventId']) &&
    isSeq(value['seq']) &&
    isZonedTimestamp(value['occurredAt']) &&
    countKeys(value) === 7
  );
}
