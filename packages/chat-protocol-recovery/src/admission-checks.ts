/**
 * The admission checks every store runs inside its fence (DESIGN §6.2), in
 * the order of `AdmitDispatchRefusalCode`, and the one reading of a request a
 * store that never throws on it needs. It owns the checks only: reading the
 * turn, resolving the caller's authority and holding the fence are the store's.
 */
import { readFields } from '@papercusp/chat-protocol-core/internal';
import type { AdmitDispatchRefusalCode, AdmitDispatchRequest } from './adapter.js';
import type { TurnRecord } from './turn-record.js';

/** What a store knows under its fence besides the record: the caller's current authority, and whether the effect has an admission. */
export interface AdmissionFacts {
  readonly granted: boolean;
  readonly admitted: boolean;
}

/**
 * Why `request` may not be admitted on `record` as read inside the fence
 * (`null` or `undefined`: no such turn), checked in the contract's order:
 * `forbidden`, `unknown-turn` (also a turn of another conversation),
 * `turn-not-running`, `unknown-effect`, `effect-settled`, `already-admitted`,
 * `stale-claim`. `null` when admission may go ahead.
 */
export function admissionRefusal(
  record: TurnRecord<unknown> | null | undefined,
  request: Pick<AdmitDispatchRequest<unknown>, 'conversationId' | 'effectId' | 'claim'>,
  facts: AdmissionFacts,
): AdmitDispatchRefusalCode | null {
  if (!facts.granted) return 'forbidden';
  if (record === null || record === undefined || record.conversationId !== request.conversationId) return 'unknown-turn';
  if (record.status !== 'running') return 'turn-not-running';
  const effect = record.effects.find((candidate) => candidate.effectId === request.effectId);
  if (effect === undefined) return 'unknown-effect';
  if (effect.status !== 'open') return 'effect-settled';
  if (facts.admitted) return 'already-admitted';
  if (effect.claim !== request.claim) return 'stale-claim';
  return null;
}

/**
 * An admission request read once, each field of the type the store writes;
 * `undefined` for a request that cannot be read (not an object, a throwing
 * getter, a Proxy, a field of the wrong type), which names no caller to
 * authorize: the store answers `forbidden` and launches nothing.
 */
export function readAdmitDispatchRequest<Caller>(given: AdmitDispatchRequest<Caller>): AdmitDispatchRequest<Caller> | undefined {
  const request = readFields(given, ['caller', 'conversationId', 'turnId', 'effectId', 'claim', 'admittedAt']);
  if (
    request === undefined ||
    typeof request.conversationId !== 'string' ||
    typeof request.turnId !== 'string' ||
    typeof request.effectId !== 'string' ||
    typeof request.claim !== 'number' ||
    typeof request.admittedAt !== 'string'
  ) {
    return undefined;
  }
  const { caller, conversationId, turnId, effectId, claim, admittedAt } = request;
  return { caller, conversationId, turnId, effectId, claim, admittedAt };
}
