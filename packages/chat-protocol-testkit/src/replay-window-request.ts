/**
 * Reading a replay-window or subscription request once, as the fake turn
 * store and the fake event log both do, and the window they answer for a
 * request that names no turn. Test support, not exported from the package.
 */
import { readFields } from '@papercusp/chat-protocol-core/internal';
import type { ReplayWindow, ReplayWindowRequest } from '@papercusp/chat-protocol-recovery';

/** The window of a turn nobody wrote, or of a request that names no turn. */
export const EMPTY_REPLAY_WINDOW: ReplayWindow = /* @__PURE__ */ Object.freeze({ lowerBound: 0, latestSeq: 0, frames: Object.freeze([]) });

/** `{ conversationId, turnId, after }` read once into a plain copy; `undefined` when it cannot be read or its fields have the wrong types. */
export function readReplayWindowRequest(given: ReplayWindowRequest): ReplayWindowRequest | undefined {
  const request = readFields(given, ['conversationId', 'turnId', 'after']);
  if (
    request === undefined ||
    typeof request.conversationId !== 'string' ||
    typeof request.turnId !== 'string' ||
    typeof request.after !== 'number'
  ) {
    return undefined;
  }
  return { conversationId: request.conversationId, turnId: request.turnId, after: request.after };
}
