/**
 * The recovery unit tests' store: one sequential in-memory store, no fences
 * (the testkit's fake store has those, and the race tests run there), with the
 * admission checks in the contract's order. Each test overrides the one method
 * whose behaviour it is about. It has no `listRunningTurns`: `TurnRecovery`
 * never lists turns (the host's sweeper does).
 */
import type { ChatCapabilities } from '@papercusp/chat-protocol-core';
import type { AdmitDispatchRefusalCode, TurnStore } from '../src/adapter.js';
import type { StoredTurn } from '../src/turn-record.js';

export const FULL: ChatCapabilities = {
  connectionReplay: true,
  persistedHistory: true,
  persistedDecisions: true,
  completedToolCheckpoints: true,
  interruptedTurnRecovery: true,
};
export const TURN = { conversationId: 'conv_1', turnId: 'turn_1' } as const;

/** The store methods `TurnRecovery` calls. */
type RecoveryStore = Required<Omit<TurnStore<string, string>, 'listRunningTurns'>>;

export interface Stub {
  readonly store: RecoveryStore;
  readonly turns: Map<string, StoredTurn<string>>;
  readonly launches: string[];
  readonly log: string[];
}

export function stubStore(): Stub {
  const turns = new Map<string, StoredTurn<string>>();
  const launches: string[] = [];
  const log: string[] = [];
  const store: RecoveryStore = {
    read(turnId) {
      log.push('read');
      return Promise.resolve(turns.get(turnId) ?? null);
    },
    compareAndSwap({ turnId, expectedRevision, next }) {
      log.push(`cas:${next.status}`);
      const current = turns.get(turnId) ?? null;
      if ((current?.record.revision ?? 0) !== expectedRevision) return Promise.resolve({ swapped: false, current });
      const turn = { record: next, admissions: current?.admissions ?? [] };
      turns.set(turnId, turn);
      return Promise.resolve({ swapped: true, turn });
    },
    admitDispatch(request, launch) {
      log.push('admit');
      const turn = turns.get(request.turnId);
      const refuse = (code: AdmitDispatchRefusalCode) => Promise.resolve({ admitted: false as const, code });
      if (request.caller === 'revoked') return refuse('forbidden');
      if (turn === undefined) return refuse('unknown-turn');
      if (turn.record.status !== 'running') return refuse('turn-not-running');
      const effect = turn.record.effects.find((candidate) => candidate.effectId === request.effectId);
      if (effect === undefined) return refuse('unknown-effect');
      if (effect.status !== 'open') return refuse('effect-settled');
      if (turn.admissions.some((admission) => admission.effectId === request.effectId)) return refuse('already-admitted');
      if (effect.claim !== request.claim) return refuse('stale-claim');
      turns.set(request.turnId, {
        record: turn.record,
        admissions: [...turn.admissions, { effectId: request.effectId, claim: request.claim, admittedAt: request.admittedAt }],
      });
      launches.push(request.effectId);
      launch();
      return Promise.resolve({ admitted: true as const });
    },
  };
  return { store, turns, launches, log };
}
