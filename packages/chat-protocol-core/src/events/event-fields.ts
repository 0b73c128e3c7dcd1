/**
 * The fields each v1 event type may carry, in wire order: the allowlist the
 * encoder copies through, and the list of v1 types it names. It declares no
 * field itself: the list is read off the hot-path validator's rule tables,
 * which are typed by the schemas' types (`events.ts`), so the encoder and the
 * parser can never disagree on a field.
 */
import { RULE_TABLES } from '../envelope/validation/rule-tables.js';
import { hasOwn } from '../primitives/primitives.js';
import type { ChatEventTypeV1, ChatEventV1Of } from './events.js';

/**
 * The fields each event type may carry, in wire order. `encodeChatEnvelope`
 * copies exactly these, so a field a host forgot to strip never leaks. They are
 * the keys of the validator's rule tables, so the encoder can never copy a
 * field the parser refuses, nor drop one it accepts.
 */
export const CHAT_EVENT_FIELDS: { readonly [Type in ChatEventTypeV1]: readonly (keyof ChatEventV1Of<Type>)[] } = /* @__PURE__ */ (() =>
  Object.freeze(Object.fromEntries(Object.entries(RULE_TABLES.events).map(([type, eventRules]) => [type, eventRules.keys]))) as {
    readonly [Type in ChatEventTypeV1]: readonly (keyof ChatEventV1Of<Type>)[];
  })();

/** Every v1 event type, in the order of the contract's table. */
export const CHAT_EVENT_TYPES_V1 = /* @__PURE__ */ (() => Object.freeze(Object.keys(CHAT_EVENT_FIELDS)) as readonly ChatEventTypeV1[])();

/** True when `value` is a v1 event type. */
export function isChatEventTypeV1(value: unknown): value is ChatEventTypeV1 {
  return typeof value === 'string' && hasOwn(CHAT_EVENT_FIELDS, value);
}
