/**
 * Race harness: fresh workers whose adapter methods are wrapped with
 * fast-check's `scheduleFunction`, fences that pause through the scheduler
 * between their check and their write, host executions whose completion is a
 * scheduled task, and the invariants every run's history must satisfy.
 */
import type { Scheduler } from 'fast-check';
import { TurnRecovery, type EffectExecution } from '@papercusp/chat-protocol-recovery';
import { createFakeDatabase, createFakeTurnStore, type FakeDatabase } from '../src/index.js';
import { CONVERSATION_ID, OWNER, TURN, TURN_ID, resultOf } from './host.js';
import { scheduleTurnRecoveryAdapter } from '../src/races.js';

/** One operation's answer, as a worker reported it. */
interface Outcome {
  readonly operation: 'dispatch' | 'claim' | 'cancel' | 'reconcile';
  readonly effectId: string;
  readonly answer: unknown;
}

export interface RaceCluster {
  readonly database: FakeDatabase;
  readonly launches: string[];
  readonly produced: Map<string, string>;
  readonly outcomes: Outcome[];
  /** Resolves when the first execution starts. */
  readonly firstLaunch: Promise<void>;
  /** A fresh worker whose every adapter call answers when the scheduler says. */
  worker(): TurnRecovery<string, string>;
  /** Claims then dispatches `effectId`, recording both answers. */
  claimAndDispatch(worker: TurnRecovery<string, string>, effectId: string): Promise<void>;
  cancel(worker: TurnRecovery<string, string>): Promise<void>;
}

/** A race cluster whose turn (with `effectIds`) started before the race. */
export async function createRaceCluster(scheduler: Scheduler, effectIds: readonly string[]): Promise<RaceCluster> {
  let racing = false;
  const database = createFakeDatabase({ pause: () => (racing ? scheduler.schedule(Promise.resolve(), 'fence pause') : undefined) });
  const launches: string[] = [];
  const produced = new Map<string, string>();
  const outcomes: Outcome[] = [];
  const controllers = new Map<string, AbortController>();
  const onAbort = (request: { effectIds: readonly string[] }): void => {
    for (const effectId of request.effectIds) controllers.get(effectId)?.abort();
  };
  const setup = createFakeTurnStore<string>(database);
  setup.grant(CONVERSATION_ID, OWNER);

  let launchSeen: () => void = () => undefined;
  const firstLaunch = new Promise<void>((resolve) => {
    launchSeen = resolve;
  });
  const execute = (execution: EffectExecution): Promise<string> => {
    launches.push(execution.effectId);
    launchSeen();
    const controller = new AbortController();
    controllers.set(execution.effectId, controller);
    return new Promise<string>((resolve, reject) => {
      controller.signal.addEventListener('abort', () => reject(new Error('aborted')));
      void scheduler.schedule(Promise.resolve(), `complete ${execution.effectId}`).then(() => {
        if (controller.signal.aborted) return;
        produced.set(execution.effectId, resultOf(execution.effectId));
        resolve(resultOf(execution.effectId));
      });
    });
  };

  const cluster: RaceCluster = {
    database,
    launches,
    produced,
    outcomes,
    firstLaunch,
    worker() {
      const adapter = scheduleTurnRecoveryAdapter(createFakeTurnStore<string>(database).adapter({ onAbort }), scheduler);
      return new TurnRecovery<string, string>(adapter);
    },
    async claimAndDispatch(worker, effectId) {
      const claimed = await worker.claimEffect({ ...TURN, effectId });
      outcomes.push({ operation: 'claim', effectId, answer: claimed });
      if (!claimed.ok || claimed.outcome !== 'claimed') return;
      const dispatched = await worker.dispatchEffect({ caller: OWNER, claim: claimed.claim, execute });
      outcomes.push({ operation: 'dispatch', effectId, answer: dispatched });
    },
    async cancel(worker) {
      outcomes.push({ operation: 'cancel', effectId: '', answer: await worker.cancelTurn(TURN) });
    },
  };
  // The turn starts before the race, through an unscheduled connection.
  const started = await new TurnRecovery<string, string>(setup.adapter()).startTurn({ ...TURN, effectIds });
  if (!started.ok) throw new Error(`start failed: ${started.code}`);
  racing = true;
  return cluster;
}

/**
 * The invariants of issue 5, over the recorded history and answers of one run:
 * the launch callback ran at most once per effect; no launch after the
 * cancellation committed; every result an execution produced is stored or was
 * reported (needs-reconciliation, or checkpoint-failed carrying it); nothing
 * answered `completed` that the store does not hold; the store saw no protocol
 * violation. Returns the broken ones, empty when all hold.
 */
export function brokenInvariants(cluster: RaceCluster): string[] {
  const broken: string[] = [];
  const history = cluster.database.history.filter((entry) => entry.key === TURN_ID);
  const launched = history.filter((entry) => entry.type === 'launched').map((entry) => String(entry.detail['effectId']));
  if (new Set(launched).size !== launched.length || new Set(cluster.launches).size !== cluster.launches.length) {
    broken.push(`an effect launched twice: ${launched.join(', ')}`);
  }
  const cancelledAt = history.find((entry) => entry.type === 'cancel-committed')?.at;
  if (cancelledAt !== undefined) {
    const late = history.filter((entry) => entry.type === 'launched' && entry.at > cancelledAt);
    if (late.length > 0)
      broken.push(`launched after the cancellation committed: ${late.map((entry) => String(entry.detail['effectId'])).join(', ')}`);
  }
  const final = createFakeTurnStore<string>(cluster.database).peek(TURN_ID);
  const storedResult = (effectId: string): string | undefined => {
    const effect = final?.record.effects.find((candidate) => candidate.effectId === effectId);
    return effect?.status === 'completed' ? effect.result : undefined;
  };
  for (const [effectId, result] of cluster.produced) {
    if (storedResult(effectId) === result) continue;
    const reported = cluster.outcomes.some(
      (outcome) =>
        outcome.operation === 'dispatch' &&
        outcome.effectId === effectId &&
        typeof outcome.answer === 'object' &&
        outcome.answer !== null &&
        (('outcome' in outcome.answer && outcome.answer.outcome === 'needs-reconciliation') ||
          ('code' in outcome.answer &&
            outcome.answer.code === 'checkpoint-failed' &&
            'result' in outcome.answer &&
            outcome.answer.result === result)),
    );
    if (!reported) broken.push(`the result of ${effectId} was neither stored nor reported`);
  }
  for (const outcome of cluster.outcomes) {
    const answer = outcome.answer as { ok?: boolean; outcome?: string; result?: unknown };
    if (answer.ok === true && answer.outcome === 'completed' && storedResult(outcome.effectId) !== answer.result) {
      broken.push(`${outcome.operation} of ${outcome.effectId} answered completed with a result the store does not hold`);
    }
  }
  const violations = history.filter((entry) => entry.type === 'violation');
  if (violations.length > 0) broken.push(`store violations: ${violations.map((entry) => String(entry.detail['violation'])).join('; ')}`);
  return broken;
}
