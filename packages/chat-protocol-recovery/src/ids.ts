/**
 * The v1 id rule, read through core: core exports no id predicate, but its
 * cursor reader validates the turn id of `<id>:<seq>` with exactly that rule,
 * so recovery asks it rather than copying the pattern.
 */
import { parseChatCursor } from '@papercusp/chat-protocol-core';

/** A v1 id: 1–256 printable ASCII characters without spaces. */
export function isChatIdentifier(value: unknown): value is string {
  return typeof value === 'string' && parseChatCursor(`${value}:0`)?.turnId === value;
}
