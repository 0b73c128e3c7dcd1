/**
 * AG-UI's text and reasoning message brackets in the open run: an assistant message's content is v1 `delta` as it
 * streams, a user message is buffered and made one `user_input` at its end, reasoning content is v1 `reasoning`.
 * It owns those brackets' entries in the run's record and their continuation rules (a continuation names its
 * opener's producer); the run itself is `run-brackets.ts`'.
 */
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { describe, lookup, sameProducer, type Fields } from './event-vocabulary.js';
import type { OpenRun } from './run-brackets.js';
import type { Step } from './translated-step.js';

// AG-UI 1.0's text message roles; another value is not AG-UI.
const TEXT_ROLES = new Set(['assistant', 'user', 'system', 'developer']);

/** `TEXT_MESSAGE_START`: opens an assistant or user message (AG-UI's other roles have no v1 meaning). */
export function textMessageStart(input: Fields, current: OpenRun): Step {
  const messageId = input['messageId'];
  const role = input['role'] ?? 'assistant';
  if (typeof messageId !== 'string') return refuse('invalid-event', 'TEXT_MESSAGE_START needs a string messageId');
  if (typeof role !== 'string' || !TEXT_ROLES.has(role))
    return refuse('invalid-event', `${describe(role)} is not an AG-UI text message role`);
  if (role !== 'assistant' && role !== 'user') return refuse('unsupported-event', `a ${role} text message has no v1 meaning`);
  current.text.set(messageId, { role, buffer: '', subagent: input['subagentRunId'] });
  return { ok: true, events: [], lost: [] };
}

/** `TEXT_MESSAGE_CONTENT`: an assistant message's `delta`, or more of a user message's text. */
export function textMessageContent(input: Fields, current: OpenRun): Step {
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

/** `TEXT_MESSAGE_END`: closes the message; a user message is its `user_input` now. */
export function textMessageEnd(input: Fields, current: OpenRun): Step {
  const messageId = input['messageId'];
  const message = lookup(current.text, messageId);
  if (typeof messageId !== 'string' || message === undefined)
    return refuse('unknown-message', 'TEXT_MESSAGE_END for a message that was not started');
  if (!sameProducer(input, message.subagent)) return refuse('invalid-event', 'its subagentRunId does not match its message opener');
  current.text.delete(messageId);
  return { ok: true, events: message.role === 'user' ? [{ type: 'user_input', text: message.buffer }] : [], lost: [] };
}

/** `REASONING_START` and `REASONING_MESSAGE_START`: opens a reasoning message. */
export function reasoningStart(type: string, input: Fields, current: OpenRun): Step {
  const messageId = input['messageId'];
  if (typeof messageId !== 'string') return refuse('invalid-event', `${type} needs a string messageId`);
  if (type === 'REASONING_MESSAGE_START' && input['role'] !== undefined && input['role'] !== 'reasoning')
    return refuse('invalid-event', 'a REASONING_MESSAGE_START role is "reasoning"');
  current.reasoning.add(messageId);
  return { ok: true, events: [], lost: [] };
}

/** `REASONING_MESSAGE_CONTENT`: v1 `reasoning` of an open reasoning message. */
export function reasoningContent(input: Fields, current: OpenRun): Step {
  const messageId = input['messageId'];
  if (typeof messageId !== 'string' || !current.reasoning.has(messageId))
    return refuse('unknown-message', 'reasoning content for a message that was not started');
  if (typeof input['delta'] !== 'string') return refuse('invalid-event', 'REASONING_MESSAGE_CONTENT needs a string delta');
  return { ok: true, events: [{ type: 'reasoning', text: input['delta'] }], lost: [] };
}

/** `REASONING_END`: closes the reasoning (a `REASONING_MESSAGE_END` closes nothing v1 holds). */
export function reasoningEnd(input: Fields, current: OpenRun): Step {
  const messageId = input['messageId'];
  if (typeof messageId === 'string') current.reasoning.delete(messageId);
  return { ok: true, events: [], lost: [] };
}
