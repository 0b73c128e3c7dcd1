/**
 * The admission checks of DESIGN §6.2 in the contract's order, shared by the
 * fake turn store and the testkit's own stores over plain maps. It owns the
 * checks only: reading the turn and holding the fence are the store's.
 */
import type { AdmitDispatchRefusalCode, AdmitDispatchRequest, EffectAdmission, TurnRecord } from '@papercusp/chat-protocol-recovery';

/**
 * Why `request` may not be admitted on `turn` as read inside the fence (null or
 * undefined: no such turn), given whether the caller holds the conversation;
 * `null` when admission may go ahead.
 */
export function admissionRefusal(
  turn: { readonly record: TurnRecord<unknown>; readonly admissions: readonly EffectAdmission[] } | null | undefined,
  request: AdmitDispatchRequest<unknown>,
  granted: boolean,
): AdmitDispatchRefusalCode | null {
  if (!granted) return 'forbidden';
  if (turn === null || turn === undefined || turn.record.conversationId !== request.conversationId) return 'unknown-turn';
  if (turn.record.status !== 'running') return 'turn-not-running';
  const effect = turn.record.effects.find((candidate) => candidate.effectId === request.effectId);
  if (effect === undefined) return 'unknown-effect';
  if (effect.status !== 'open') return 'effect-settled';
  if (turn.admissions.some((admission) => admission.effectId === request.effectId)) return 'already-admitted';
  if (effect.claim !== request.claim) return 'stale-claim';
  return null;
}
