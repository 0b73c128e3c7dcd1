/**
 * The read-the-state use cases (`GET /state`, `GET /turns/by-client-id/:clientTurnId`,
 * and the AI SDK's resume, which asks for the running turn): reads over the
 * stores with no side effects. The caller's authority is the route's first check.
 */
import type { ChatHostCaller } from '../chat-host-caller.js';
import { readConversationState, type ConversationStateAnswer } from './conversation-state.js';
import { hostRefusal, type HostResult } from './host-refusal.js';
import type { HostRuntime } from './host-runtime.js';
import { hostTurnId } from './host-turn-id.js';
import { hasOrphanedEffect } from './orphaned-effects.js';
import { readSettledProgress } from './interrupt-turn.js';
import type { TurnProgress } from './turn-progress.js';

/**
 * The conversation's folded state, within the host's bounds. Refusals: the
 * fold's (`state-too-large` with its `limit`, `state-unfoldable`), `store-unavailable`. Never rejects.
 */
export async function readState(runtime: HostRuntime, conversationId: string): Promise<HostResult<ConversationStateAnswer>> {
  const answer = await readConversationState(runtime.store.readConversationLog, conversationId, runtime.stateBounds);
  if (answer.ok) return answer;
  return hostRefusal(answer.code, answer.message, answer.limit === undefined ? {} : { limit: answer.limit });
}

/** A turn's status by its client turn id: recovery's `TurnStatusResponse`. */
export type TurnStatusAnswer =
  | { readonly turnId: string; readonly status: 'not-found' }
  | (Omit<TurnProgress, 'run'> & { readonly turnId: string })
  | (Omit<TurnProgress, 'status' | 'run'> & { readonly turnId: string; readonly status: 'needs-reconciliation' });

/** The turn a client turn id names in the conversation. */
export interface ReadTurnStatusRequest {
  readonly caller: ChatHostCaller;
  readonly conversationId: string;
  /** Of the form `turn_<32 hex digits>` (the route checks it). */
  readonly clientTurnId: string;
}

/**
 * The turn's status: `not-found` for a client turn id that started nothing
 * here, `needs-reconciliation` for a running turn whose admitted effect
 * outlived the admission lease (its worker is gone), `interrupted` for a turn
 * whose run was lost (one found past its run lease is interrupted first and
 * its tail written, §11.2: the only write this read makes), else its status.
 * Refusal: `store-unavailable`. Never rejects.
 */
export async function readTurnStatus(runtime: HostRuntime, request: ReadTurnStatusRequest): Promise<HostResult<TurnStatusAnswer>> {
  const { caller, conversationId } = request;
  const turnId = await hostTurnId(conversationId, request.clientTurnId);
  const progress = await readSettledProgress(runtime, { caller, conversationId, turnId });
  if (progress === 'unavailable') return hostRefusal('store-unavailable', 'the turn could not be read');
  if (progress === null) return { ok: true, value: { turnId, status: 'not-found' } };
  // A running turn whose admitted effect outlived the lease lost its worker: its outcome needs reconciliation.
  const orphaned = progress.status === 'running' && (await hasOrphanedEffect(runtime.recovery, { caller, conversationId, turnId }));
  // The owning run stays out of the answer: a client whose recovery predates run leases parses the answer strictly.
  const { status, lastSeq } = progress;
  return { ok: true, value: { turnId, status: orphaned ? 'needs-reconciliation' : status, lastSeq } };
}

/**
 * The conversation's latest running turn (in any host process), read from
 * the store: `undefined` when none runs. Refusals: {@link readState}'s.
 */
export async function readRunningTurn(runtime: HostRuntime, conversationId: string): Promise<HostResult<string | undefined>> {
  const state = await readState(runtime, conversationId);
  return state.ok ? { ok: true, value: state.value.running.at(-1)?.turnId } : state;
}
