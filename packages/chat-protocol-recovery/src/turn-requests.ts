/**
 * The requests of `TurnRecovery`'s operations and how each is read: once, into
 * a copy (core's `readFields`), so a getter cannot answer twice and a request
 * that cannot be read is `invalid-request`, never an exception. It owns the
 * shapes and the reading; what an operation does with a request is
 * `TurnRecovery`'s.
 */
import { isChatId, type ChatCursor } from '@papercusp/chat-protocol-core';
import { readFields } from '@papercusp/chat-protocol-core/internal';
import type { EffectClaim } from './outcomes.js';
import type { FinishedTurnStatus } from './turn-record.js';

/** The request of `startTurn`: the effect identities the host authorized for this turn, and the run that will own it. */
export interface StartTurnRequest<Caller> {
  readonly caller: Caller;
  readonly conversationId: string;
  readonly turnId: string;
  readonly effectIds: readonly string[];
  /**
   * The v1 id of the run that will own the turn (§6 rule 12), minted by the host
   * (one per run, so a process restarted on the same turn is another run). The
   * turn is stored with it and a lease of `runLeaseMs`. Without it the turn has
   * no owner and any process may interrupt it at once.
   */
  readonly runId?: string;
}

/** The request of `declareEffect` and `claimEffect`, and the target of `reconcileEffect`. */
export interface EffectRequest<Caller> {
  readonly caller: Caller;
  readonly conversationId: string;
  readonly turnId: string;
  readonly effectId: string;
}

/** The request of `cancelTurn`. */
export interface TurnRequest<Caller> {
  readonly caller: Caller;
  readonly conversationId: string;
  readonly turnId: string;
}

/** The request of `renewRunLease`: the turn and the run that claims to own it. */
export interface RenewRunLeaseRequest<Caller> extends TurnRequest<Caller> {
  readonly runId: string;
}

/** The request of `finishTurn`: the run that owns the turn, and the status of the terminal frame it wrote. */
export interface FinishTurnRequest<Caller> extends TurnRequest<Caller> {
  readonly runId: string;
  readonly status: FinishedTurnStatus;
}

/**
 * The request of `interruptTurn`. With `runId`, the run that owns the turn gives
 * it up before its lease ends (a host draining its own runs); without it, the
 * turn is interrupted only past its lease.
 */
export interface InterruptTurnRequest<Caller> extends TurnRequest<Caller> {
  readonly runId?: string;
}

/** What the host's execution receives: the admitted claim. It owns its own AbortController, reached by the abort hook. */
export type EffectExecution = EffectClaim;

/** The request of `dispatchEffect`. */
export interface DispatchEffectRequest<Result, Caller> {
  readonly caller: Caller;
  readonly claim: EffectClaim;
  /**
   * Starts the host execution. Called at most once, synchronously inside the
   * store's fence: register the execution (and its AbortController) before the
   * first `await`, so a cancellation that commits next can reach it.
   */
  readonly execute: (execution: EffectExecution) => Result | Promise<Result>;
}

/** The request of `reconcileEffect`: a result the host verified through its own effect or idempotency lookup. */
export interface ReconcileEffectRequest<Result, Caller> extends EffectRequest<Caller> {
  readonly result: Result;
}

/** The request of `replayTurn`. */
export interface ReplayTurnRequest<Caller> extends TurnRequest<Caller> {
  /** The client's `Last-Event-ID` or a cursor. */
  readonly after: string | ChatCursor;
}

/** What every request naming a turn holds: its conversation and turn. */
interface NamesTurn {
  readonly conversationId: string;
  readonly turnId: string;
}

/**
 * Reads a request once: the fields `keys` and the turn's ids, which must be v1
 * ids. Null when the request is not an object, cannot be read (a throwing
 * getter, a Proxy) or names no turn; the operation then uses only the copy.
 */
export function readTurnRequest<Request extends NamesTurn, Key extends keyof Request & string>(
  request: Request,
  keys: readonly Key[],
): Pick<Request, Key | keyof NamesTurn> | null {
  const fields = readFields<Request, Key | keyof NamesTurn>(request, [...keys, 'conversationId', 'turnId']);
  return fields !== undefined && isChatId(fields.conversationId) && isChatId(fields.turnId) ? fields : null;
}

/**
 * A list of unique v1 ids, copied with each entry read once; null when it is
 * anything else or cannot be read. It stops at the first entry that is not an id.
 */
export function readUniqueIds(value: unknown): readonly string[] | null {
  try {
    if (!Array.isArray(value)) return null;
    const length: unknown = value.length;
    if (typeof length !== 'number') return null;
    const ids: string[] = [];
    for (let index = 0; index < length; index += 1) {
      const id: unknown = value[index];
      if (!isChatId(id)) return null;
      ids.push(id);
    }
    return new Set(ids).size === ids.length ? ids : null;
  } catch {
    // Array.isArray throws on a revoked Proxy; an entry may be a throwing getter.
    return null;
  }
}
