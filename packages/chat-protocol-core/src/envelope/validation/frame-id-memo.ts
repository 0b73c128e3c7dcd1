/**
 * A memo of the conversation and turn ids of the last envelope frame that
 * passed: a stream repeats them in every envelope, and comparing with a
 * known-valid string is cheaper than checking it again. Module state on
 * purpose, shared by every parser: it changes how fast an id is judged, never
 * what is judged. It owns no other field of the frame.
 */
import { isChatId } from '../../primitives/primitives.js';

// Invariant: each holds '' (never a valid id: ids have at least one character)
// or a string isChatId accepted, so `value === last || isChatId(value)` answers
// exactly as `isChatId(value)` does, whatever was parsed before.
let lastConversationId = '';
let lastTurnId = '';

/**
 * Whether `conversationId` and `turnId` are both v1 ids (`isChatId`); when
 * they are, they become the ones compared first next time. Same answers as
 * two `isChatId` calls; never throws.
 */
export function areFrameIds(conversationId: unknown, turnId: unknown): boolean {
  if (!(conversationId === lastConversationId || isChatId(conversationId)) || !(turnId === lastTurnId || isChatId(turnId))) {
    return false;
  }
  lastConversationId = conversationId;
  lastTurnId = turnId;
  return true;
}
