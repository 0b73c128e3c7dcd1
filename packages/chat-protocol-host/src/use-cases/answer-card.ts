/**
 * The answer-a-card use case (`POST /cards/:correlationId`): the answer goes
 * through `InteractionResolver`, whose store reads the bearer's authority in
 * the card's transaction, and wakes the run waiting for it in this process.
 * It owns mapping the resolver's outcomes; checking the body's shape is the route's.
 */
import type { CardResponse } from '@papercusp/chat-protocol-core';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { turnIdOfCard } from '../run/ask-card.js';
import { NOT_FOUND, hostRefusal, type HostResult } from './host-refusal.js';
import type { HostRuntime } from './host-runtime.js';
import { interruptIfRunGone } from './interrupt-turn.js';

/** A card answer: who answers, in which conversation, and the `CardResponse` (its correlation id the card's). */
export interface AnswerCardRequest {
  readonly caller: ChatHostCaller;
  readonly conversationId: string;
  readonly response: CardResponse;
}

/** The card's stored resolution; `replayed` when the same answer was resent (DESIGN §7.5). */
export type AnsweredCard =
  | { readonly correlationId: string; readonly status: string }
  | { readonly correlationId: string; readonly status: string; readonly replayed: true };

/**
 * Answers the card. Refusals: `not-found`, `store-unavailable` (also for an
 * answer that could not be confirmed), `already-closed` with the stored
 * `{ correlationId, status }` when another answer closed it first,
 * `invalid-body` with the resolver's `reason` for a value the card refuses
 * (a card whose turn is past its run lease is closed `interrupted` first: `already-closed`),
 * `card-refused` with its `reason` otherwise. Never rejects.
 */
export async function answerCard(runtime: HostRuntime, request: AnswerCardRequest): Promise<HostResult<AnsweredCard>> {
  const { caller, conversationId, response } = request;
  const { correlationId } = response;
  // A card whose turn's run is gone is closed with the turn's tail first: the answer then finds it closed.
  const turnId = turnIdOfCard(correlationId);
  if (turnId !== null) await interruptIfRunGone(runtime, { caller, conversationId, turnId });
  const answer = await runtime.resolver.respond({ caller, conversationId, response });
  if (!answer.ok) {
    if (answer.code === 'not-found') return NOT_FOUND;
    if (answer.code === 'store-unavailable') return hostRefusal('store-unavailable', answer.message);
    // Another answer closed the card first: the client learns the stored resolution, not just that it lost.
    if (answer.code === 'already-closed') return hostRefusal('already-closed', answer.message, { correlationId, status: answer.status });
    if (answer.code === 'invalid-request' || answer.code === 'validation-failed' || answer.code.startsWith('invalid-')) {
      return hostRefusal('invalid-body', answer.message, { reason: answer.code });
    }
    return hostRefusal('card-refused', answer.message, { reason: answer.code });
  }
  runtime.cardWakeups.wake(correlationId);
  if (answer.outcome === 'needs-reconciliation') return hostRefusal('store-unavailable', 'the answer could not be confirmed');
  const status = answer.record.status;
  return { ok: true, value: answer.replayed ? { correlationId, status, replayed: true } : { correlationId, status } };
}
