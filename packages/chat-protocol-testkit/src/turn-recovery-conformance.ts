/**
 * The conformance checks a host's turn recovery adapter must pass: the store
 * contract of DESIGN §6 exercised through `TurnRecovery` by fresh workers,
 * including races explored with fast-check's scheduler. Every invariant is
 * observed from outside the store — the suite's own executions, the order of
 * its cancellation answer and its launches, and a fresh worker's reads — never
 * through a store's internals, which a host's database does not expose.
 */
import { compareChatTimestamps } from '@papercusp/chat-protocol-core';
import {
  TurnRecovery,
  type AbortRequest,
  type CancelTurnResult,
  type DispatchEffectResult,
  type EffectExecution,
  type FinishedTurnStatus,
  type ListRunningTurnsRequest,
  type TurnRecoveryAdapter,
} from '@papercusp/chat-protocol-recovery';
import type { Scheduler } from 'fast-check';
import type { ConformanceCheck } from './interaction-conformance.js';
import { checkRaces, settleRace, type RacePacing } from './scheduled-transit.js';
import { scheduleTurnRecoveryAdapter } from './scheduled-turn-adapter.js';

/** What the suite hands the host's adapter factory: the suite's own abort behaviour. */
export interface TurnRecoveryHarnessAdapterOptions {
  /**
   * The executions of the checks belong to the suite, so the suite supplies
   * what aborting them means: the host's abort hook (`adapter.abort`) must
   * call this with the request it was given.
   */
  readonly onAbort: (request: AbortRequest) => void | Promise<void>;
}

/** What a host hands the checks: fresh workers' adapters over its shared store, and a way to grant callers. */
export interface TurnRecoveryHarness {
  /** A new adapter over the host's store: one fresh worker. Every adapter sees the same data. Its `abort` calls `options.onAbort`. */
  adapter(options: TurnRecoveryHarnessAdapterOptions): TurnRecoveryAdapter<string, string>;
  /** Makes `caller` authorized in `conversationId`, both for `authorize` and for the store's revalidation under the fence. */
  grant(conversationId: string, caller: string): void | Promise<void>;
  /** Optional: a restart, dropping every in-memory lock, cache and connection while keeping what committed. Adapters made before it are not used after it. */
  restart?(): void | Promise<void>;
}

/** Options of the turn recovery checks. */
export interface TurnRecoveryConformanceOptions {
  /** Interleavings per race check (default 200; the testkit's own fake store runs 1,000). */
  readonly numRuns?: number;
}

const OWNER = 'conformance-owner';
const RESULT_PREFIX = 'done:';
/** The suite's clock starts here (with milliseconds, so a store that drops them shows) and moves only when a check moves it. */
const CLOCK_START_MS = Date.parse('2031-05-01T08:00:00.250Z');
/** The admission lease every worker of the suite uses. */
const ADMISSION_LEASE_MS = 60_000;
/** The run lease every worker of the suite uses (§6 rule 12): each turn is started by the run `runId` of its run. */
const RUN_LEASE_MS = 30_000;

/**
 * How one of the suite's executions ends: at once; on a task the scheduler
 * runs; or when aborted, or else right after the run's cancellation answered
 * (so every execution is still running when it answers, and an abort hook
 * that never reaches it cannot hang the check).
 */
type Completion = 'immediate' | 'scheduled' | 'until-cancelled';

interface Execution {
  readonly effectId: string;
  readonly controller: AbortController;
  readonly completion: Completion;
  settled: boolean;
  /** Completes the execution with its result, unless it settled already. */
  complete(): void;
}

interface TurnKey {
  readonly caller: string;
  readonly conversationId: string;
  readonly turnId: string;
}

/** One run of a check: its own turn, its executions, and what the workers answered. */
interface Run {
  readonly key: TurnKey;
  /** The run that started the turn and owns its run lease. */
  readonly runId: string;
  /** Executions in the order they launched. */
  readonly launches: Execution[];
  /** Results executions produced, by effect id. */
  readonly produced: Map<string, string>;
  readonly dispatches: { readonly effectId: string; readonly answer: DispatchEffectResult<string> }[];
  /** Violations seen while the run went on (the order of launches and the cancellation's answer). */
  readonly observed: string[];
  /** Resolves when the first execution launches. */
  readonly firstLaunch: Promise<void>;
  /** The run's clock, in milliseconds after `CLOCK_START_MS`: every worker of the run reads it. */
  readonly clock: { elapsedMs: number };
  /** A fresh worker; scheduled when the run has a scheduler. */
  worker(): TurnRecovery<string, string>;
  /** A fresh worker whose calls are never scheduled, for setup and the final reads. */
  plainWorker(): TurnRecovery<string, string>;
  execute(completion: Completion): (execution: EffectExecution) => Promise<string>;
  claimAndDispatch(worker: TurnRecovery<string, string>, effectId: string, completion: Completion): Promise<void>;
  cancel(worker: TurnRecovery<string, string>): Promise<CancelTurnResult>;
}

let turns = 0;
// Per process: a host's database may keep the turns of earlier CI runs, or serve several test files at once.
const RUN_ID = Math.random().toString(36).slice(2, 10);

const resultOf = (key: TurnKey, effectId: string): string => `${RESULT_PREFIX}${key.turnId}/${effectId}`;

/** How one call ended: its value, or the throw (described), which the calls the conformance checks make must never do. */
export async function outcomeOf(call: () => Promise<unknown>): Promise<{ readonly value: unknown } | { readonly threw: string }> {
  try {
    return { value: await call() };
  } catch (error) {
    return { threw: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** An `inspectTurn` answer as the turn's status. */
const inspectedStatus = (answer: unknown): unknown => (answer as { readonly value?: { readonly status?: unknown } }).value?.status;

/** A `TurnRecovery` answer as its outcome or refusal code. */
function verdictOf(answer: unknown): unknown {
  if (typeof answer !== 'object' || answer === null) return answer;
  const { ok, outcome, code } = answer as { readonly ok?: unknown; readonly outcome?: unknown; readonly code?: unknown };
  return ok === true ? outcome : code;
}

/**
 * Compares a call's answer (seen through `view`, by default its outcome or refusal code) with `expected`, and records
 * the difference, or a throw, in `failures`; resolves to the answer (undefined after a throw).
 */
async function expectAnswer(
  failures: string[],
  what: string,
  call: () => Promise<unknown>,
  expected: unknown,
  view: (answer: unknown) => unknown = verdictOf,
): Promise<unknown> {
  const outcome = await outcomeOf(call);
  const found = 'threw' in outcome ? `a throw (${outcome.threw})` : view(outcome.value);
  if (JSON.stringify(found) !== JSON.stringify(expected))
    failures.push(`${what} answered ${JSON.stringify('value' in outcome ? outcome.value : found)}, not ${JSON.stringify(expected)}`);
  return 'value' in outcome ? outcome.value : undefined;
}

/**
 * Starts a turn of its own with `effectIds` (its ids carry `label`, so a check can find its own turns in a listing);
 * the answer is a failure when the start did not succeed.
 */
async function createRun(
  harness: TurnRecoveryHarness,
  effectIds: readonly string[],
  scheduler?: Scheduler,
  label = '',
): Promise<Run | string> {
  turns += 1;
  const key: TurnKey = {
    caller: OWNER,
    conversationId: `conv_conformance_${RUN_ID}_${label}${turns}`,
    turnId: `turn_conformance_${RUN_ID}_${label}${turns}`,
  };
  await harness.grant(key.conversationId, OWNER);
  const launches: Execution[] = [];
  const running = new Map<string, Execution>();
  const produced = new Map<string, string>();
  const observed: string[] = [];
  const dispatches: Run['dispatches'] = [];
  let cancelCommitted = false;
  let cancelAnswered = false;
  let launchSeen: () => void = () => undefined;
  const firstLaunch = new Promise<void>((resolve) => {
    launchSeen = resolve;
  });
  const onAbort = (request: AbortRequest): void => {
    if (request.turnId !== key.turnId) return;
    for (const effectId of request.effectIds) running.get(effectId)?.controller.abort();
  };
  const clock = { elapsedMs: 0 };
  const options = {
    admissionLeaseMs: ADMISSION_LEASE_MS,
    runLeaseMs: RUN_LEASE_MS,
    clock: () => new Date(CLOCK_START_MS + clock.elapsedMs).toISOString(),
  };
  const runId = `run_conformance_${RUN_ID}_${turns}`;
  const plainWorker = (): TurnRecovery<string, string> => new TurnRecovery<string, string>(harness.adapter({ onAbort }), options);
  const run: Run = {
    key,
    runId,
    launches,
    produced,
    dispatches,
    observed,
    firstLaunch,
    clock,
    plainWorker,
    worker: () =>
      scheduler === undefined
        ? plainWorker()
        : new TurnRecovery<string, string>(scheduleTurnRecoveryAdapter(harness.adapter({ onAbort }), scheduler), options),
    execute(completion) {
      return (execution) => {
        if (cancelCommitted) observed.push(`${execution.effectId} launched after cancelTurn answered that the cancellation committed`);
        // Registered before the first await, as the host contract asks: the abort hook can reach it at once.
        let complete: () => void = () => undefined;
        const registered: Execution = {
          effectId: execution.effectId,
          controller: new AbortController(),
          completion,
          settled: false,
          complete: () => complete(),
        };
        launches.push(registered);
        running.set(execution.effectId, registered);
        launchSeen();
        const finish = (): string => {
          registered.settled = true;
          const result = resultOf(key, execution.effectId);
          produced.set(execution.effectId, result);
          return result;
        };
        if (completion === 'immediate') return Promise.resolve(finish());
        return new Promise<string>((resolve, reject) => {
          complete = () => {
            if (!registered.settled) resolve(finish());
          };
          registered.controller.signal.addEventListener('abort', () => {
            if (registered.settled) return;
            registered.settled = true;
            reject(new Error('aborted'));
          });
          // Launched after the cancellation answered (a violation already recorded): nothing would end it.
          if (completion === 'until-cancelled' && cancelAnswered) complete();
          if (completion === 'scheduled' && scheduler !== undefined) {
            void scheduler.schedule(Promise.resolve(), `complete ${execution.effectId}`).then(complete);
          }
        });
      };
    },
    async claimAndDispatch(worker, effectId, completion) {
      const claimed = await worker.claimEffect({ ...key, effectId });
      if (!claimed.ok || claimed.outcome !== 'claimed') return;
      dispatches.push({
        effectId,
        answer: await worker.dispatchEffect({ caller: OWNER, claim: claimed.claim, execute: run.execute(completion) }),
      });
    },
    async cancel(worker) {
      const answer = await worker.cancelTurn(key);
      if (!answer.ok || !answer.committed) {
        observed.push(`the only cancellation answered ${JSON.stringify(answer)}, not a committed cancellation`);
      } else {
        cancelCommitted = true;
        // cancelTurn awaited the abort hook: whatever launched before is finished or was aborted.
        for (const execution of launches) {
          if (!execution.settled && !execution.controller.signal.aborted) {
            observed.push(
              `${execution.effectId} launched before the cancellation committed, was still running when cancelTurn answered, and the abort hook never reached it`,
            );
          }
        }
      }
      // Executions waiting for the cancellation end now, so their dispatches answer.
      cancelAnswered = true;
      for (const execution of launches) if (execution.completion === 'until-cancelled') execution.complete();
      return answer;
    },
  };
  const started = await plainWorker().startTurn({ ...key, effectIds, runId });
  return started.ok && started.outcome === 'started' ? run : `starting a turn answered ${JSON.stringify(started)}`;
}

/**
 * Claims `effectId` and dispatches it, each on a fresh worker, with an
 * execution that runs until aborted (or the run's cancellation answered), and
 * waits for its launch: the dispatch still in flight, or the failure when the
 * claim was refused or the dispatch ended without a running execution.
 */
async function launchUntilAborted(
  run: Run,
  effectId: string,
): Promise<{ readonly dispatching: Promise<DispatchEffectResult<string>> } | string> {
  const claimed = await run.worker().claimEffect({ ...run.key, effectId });
  if (!claimed.ok || claimed.outcome !== 'claimed') return `the claim answered ${JSON.stringify(claimed)}`;
  const dispatching = run.worker().dispatchEffect({ caller: OWNER, claim: claimed.claim, execute: run.execute('until-cancelled') });
  const early = await Promise.race([run.firstLaunch.then(() => null), dispatching]);
  if (early !== null || run.launches.length !== 1) return `the dispatch answered ${JSON.stringify(early)} without a running execution`;
  return { dispatching };
}

/** The effect ids a fresh worker's `inspectTurn` lists, in the turn's order, or the failure when it refused. */
async function inspectedEffectIds(run: Run): Promise<readonly string[] | string> {
  const answer = await run.plainWorker().inspectTurn(run.key);
  return answer.ok ? answer.value.effects.map((effect) => effect.effectId) : `inspectTurn answered ${JSON.stringify(answer)}`;
}

/**
 * The invariants over one run, read through a fresh worker: at most one launch
 * per effect; every produced result stored or reported; nothing answered
 * `completed` that the store does not hold; and, after a cancellation, the
 * turn still cancelled (an untouched effect cannot be claimed).
 */
async function runFailures(
  run: Run,
  effectIds: readonly string[],
  cancelled: { readonly spareEffectId: string } | null,
): Promise<string[]> {
  const failures = [...run.observed];
  const fresh = run.plainWorker();
  for (const effectId of effectIds) {
    const launched = run.launches.filter((execution) => execution.effectId === effectId).length;
    if (launched > 1) failures.push(`${effectId} launched ${launched} times; at most once`);
    const claimed = await fresh.claimEffect({ ...run.key, effectId });
    const stored = claimed.ok && claimed.outcome === 'completed' ? claimed.result : undefined;
    if (claimed.ok && claimed.outcome === 'completed' && !claimed.reused)
      failures.push(`a fresh worker's claim of ${effectId} answered completed without reused`);
    const result = run.produced.get(effectId);
    if (result !== undefined && stored !== result) {
      const reported = run.dispatches.some(
        ({ effectId: dispatched, answer }) =>
          dispatched === effectId &&
          ((answer.ok && answer.outcome === 'needs-reconciliation') ||
            (!answer.ok && answer.code === 'checkpoint-failed' && answer.result === result)),
      );
      if (!reported)
        failures.push(`the result of ${effectId} was neither stored nor reported: a fresh claim answers ${JSON.stringify(claimed)}`);
    }
    for (const { effectId: dispatched, answer } of run.dispatches) {
      if (dispatched === effectId && answer.ok && answer.outcome === 'completed' && answer.result !== stored) {
        failures.push(
          `a dispatch of ${effectId} answered completed with ${JSON.stringify(answer.result)}, but a fresh claim answers ${JSON.stringify(claimed)}`,
        );
      }
    }
  }
  if (cancelled !== null) {
    const spare = await fresh.claimEffect({ ...run.key, effectId: cancelled.spareEffectId });
    if (spare.ok || spare.code !== 'turn-not-running')
      failures.push(`after the cancellation, claiming an untouched effect answered ${JSON.stringify(spare)}, not turn-not-running`);
  }
  return failures;
}

/**
 * A race check: each interleaving on a turn of its own (started with `effectIds`), with fresh scheduled workers; the
 * invariants cover the started effects and those the race may declare (`declaredIds`).
 */
function raceCheck(
  name: string,
  numRuns: number,
  effectIds: readonly string[],
  race: (run: Run, pacing: RacePacing) => Promise<void>,
  cancelled: { readonly spareEffectId: string } | null,
  declaredIds: readonly string[] = [],
): ConformanceCheck<TurnRecoveryHarness> {
  return {
    name,
    run: (harness) =>
      checkRaces(numRuns, async (pacing) => {
        const run = await createRun(harness, effectIds, pacing.scheduler);
        if (typeof run === 'string') return [run];
        await race(run, pacing);
        return runFailures(
          run,
          [...effectIds, ...declaredIds].filter((effectId) => effectId !== cancelled?.spareEffectId),
          cancelled,
        );
      }),
  };
}

/**
 * The checks, in order. Each uses turns of its own, so one database can serve
 * them all; run them with `describeTurnRecoveryConformance` from
 * `@papercusp/chat-protocol-testkit/vitest`.
 */
export function turnRecoveryChecks(options: TurnRecoveryConformanceOptions = {}): readonly ConformanceCheck<TurnRecoveryHarness>[] {
  const numRuns = options.numRuns ?? 200;
  return [
    {
      name: 'a claim, a dispatch and a model retry on fresh workers (and after a restart): one launch, the stored result reused',
      async run(harness) {
        const run = await createRun(harness, ['call_pay']);
        if (typeof run === 'string') return [run];
        const failures: string[] = [];
        const claimed = await run.worker().claimEffect({ ...run.key, effectId: 'call_pay' });
        if (!claimed.ok || claimed.outcome !== 'claimed') return [`the first claim answered ${JSON.stringify(claimed)}`];
        const dispatched = await run.worker().dispatchEffect({ caller: OWNER, claim: claimed.claim, execute: run.execute('immediate') });
        const result = resultOf(run.key, 'call_pay');
        if (!dispatched.ok || dispatched.outcome !== 'completed' || dispatched.reused || dispatched.result !== result) {
          failures.push(`the dispatch answered ${JSON.stringify(dispatched)}, not completed with ${JSON.stringify(result)}`);
        }
        await harness.restart?.();
        const retried = await run.worker().claimEffect({ ...run.key, effectId: 'call_pay' });
        if (!retried.ok || retried.outcome !== 'completed' || !retried.reused || retried.result !== result) {
          failures.push(`the model retry's claim answered ${JSON.stringify(retried)}, not the stored result reused`);
        }
        const redispatched = await run.worker().dispatchEffect({ caller: OWNER, claim: claimed.claim, execute: run.execute('immediate') });
        if (!redispatched.ok || redispatched.outcome !== 'completed' || !redispatched.reused || redispatched.result !== result) {
          failures.push(`dispatching the old claim again answered ${JSON.stringify(redispatched)}, not the stored result reused`);
        }
        if (run.launches.length !== 1) failures.push(`${run.launches.length} launches; exactly one`);
        return failures;
      },
    },
    {
      name: 'an admission after the cancellation committed is refused: turn-not-running, nothing launched',
      async run(harness) {
        const run = await createRun(harness, ['call_pay']);
        if (typeof run === 'string') return [run];
        const failures: string[] = [];
        const claimed = await run.worker().claimEffect({ ...run.key, effectId: 'call_pay' });
        if (!claimed.ok || claimed.outcome !== 'claimed') return [`the claim answered ${JSON.stringify(claimed)}`];
        const cancelled = await run.cancel(run.worker());
        if (!cancelled.ok || cancelled.inFlight.length !== 0 || cancelled.abort !== 'not-needed') {
          failures.push(`the cancellation answered ${JSON.stringify(cancelled)}, not committed with nothing in flight`);
        }
        const dispatched = await run.worker().dispatchEffect({ caller: OWNER, claim: claimed.claim, execute: run.execute('immediate') });
        if (dispatched.ok || dispatched.code !== 'turn-not-running')
          failures.push(`the dispatch answered ${JSON.stringify(dispatched)}, not turn-not-running`);
        if (run.launches.length !== 0) failures.push(`${run.launches.length} launches after the cancellation committed; none`);
        return [...failures, ...run.observed];
      },
    },
    {
      name: 'a cancellation reaches an in-flight execution through the abort hook; its outcome then needs reconciliation',
      async run(harness) {
        const run = await createRun(harness, ['call_pay']);
        if (typeof run === 'string') return [run];
        const failures: string[] = [];
        // The execution runs until aborted: wait for its launch (or a dispatch that ended without one), then cancel.
        const running = await launchUntilAborted(run, 'call_pay');
        if (typeof running === 'string') return [running];
        const { dispatching } = running;
        const cancelled = await run.cancel(run.worker());
        if (!cancelled.ok || JSON.stringify(cancelled.inFlight) !== '["call_pay"]' || cancelled.abort !== 'requested') {
          failures.push(
            `the cancellation answered ${JSON.stringify(cancelled)}, not committed with call_pay in flight and the abort requested`,
          );
        }
        const dispatched = await dispatching;
        if (!dispatched.ok || dispatched.outcome !== 'needs-reconciliation' || dispatched.reason !== 'dispatch-failed') {
          failures.push(`the aborted dispatch answered ${JSON.stringify(dispatched)}, not needs-reconciliation (dispatch-failed)`);
        }
        const fresh = await run.worker().claimEffect({ ...run.key, effectId: 'call_pay' });
        if (!fresh.ok || fresh.outcome !== 'needs-reconciliation')
          failures.push(`a fresh claim answered ${JSON.stringify(fresh)}, not needs-reconciliation`);
        return [...failures, ...run.observed];
      },
    },
    {
      name: 'an orphaned admission (§6.11): already-admitted within the lease, needs-reconciliation (admission-expired) past it, on fresh workers and after a restart; never relaunched; admittedAt kept as given',
      async run(harness) {
        const run = await createRun(harness, ['call_pay', 'call_mail']);
        if (typeof run === 'string') return [run];
        const failures: string[] = [];
        const admittedAt = new Date(CLOCK_START_MS).toISOString();
        // The dispatching worker "dies": its execution never settles while the check looks.
        const running = await launchUntilAborted(run, 'call_pay');
        if (typeof running === 'string') return [running];
        const { dispatching } = running;
        const inspected = async (expected: 'in-flight' | 'uncertain' | 'needs-reconciliation'): Promise<void> => {
          const answer = await run.worker().inspectTurn(run.key);
          const effect = answer.ok ? answer.value.effects.find((candidate) => candidate.effectId === 'call_pay') : undefined;
          const mail = answer.ok ? answer.value.effects.find((candidate) => candidate.effectId === 'call_mail') : undefined;
          const keptAt = effect !== undefined && 'admittedAt' in effect ? effect.admittedAt : undefined;
          const dated =
            expected === 'needs-reconciliation' || (typeof keptAt === 'string' && compareChatTimestamps(keptAt, admittedAt) === 0);
          const reasoned =
            expected !== 'needs-reconciliation' || (effect?.state === 'needs-reconciliation' && effect.reason === 'admission-expired');
          if (effect?.state !== expected || !dated || !reasoned || mail?.state !== 'open') {
            failures.push(
              `at ${run.clock.elapsedMs} ms inspectTurn answered ${JSON.stringify(answer)}, not call_pay ${expected}${expected === 'needs-reconciliation' ? ' (admission-expired)' : ` admitted at ${admittedAt}`} and call_mail open`,
            );
          }
        };
        run.clock.elapsedMs = ADMISSION_LEASE_MS - 1;
        const young = await run.worker().claimEffect({ ...run.key, effectId: 'call_pay' });
        if (young.ok || young.code !== 'already-admitted')
          failures.push(`1 ms before the lease ends a fresh claim answered ${JSON.stringify(young)}, not already-admitted`);
        await inspected('in-flight');
        await harness.restart?.();
        run.clock.elapsedMs = ADMISSION_LEASE_MS;
        await inspected('uncertain');
        for (const attempt of ['the first claim past the lease', 'a later claim']) {
          const expired = await run.worker().claimEffect({ ...run.key, effectId: 'call_pay' });
          if (!expired.ok || expired.outcome !== 'needs-reconciliation' || expired.reason !== 'admission-expired') {
            failures.push(`${attempt} answered ${JSON.stringify(expired)}, not needs-reconciliation (admission-expired)`);
          }
        }
        await inspected('needs-reconciliation');
        if (run.launches.length !== 1) failures.push(`${run.launches.length} launches; exactly one`);
        for (const execution of run.launches) execution.complete();
        await dispatching;
        return [...failures, ...run.observed];
      },
    },
    {
      name: "a missing turn or effect gets a typed answer, never a throw: the store's read, compareAndSwap and admitDispatch, and every TurnRecovery operation over it",
      async run(harness) {
        const run = await createRun(harness, ['call_pay']);
        if (typeof run === 'string') return [run];
        const store = harness.adapter({ onAbort: () => undefined }).store;
        if (store === undefined) return ['the adapter has no store'];
        const failures: string[] = [];
        const answers = async (
          what: string,
          call: () => Promise<unknown>,
          expected: unknown,
          view: (answer: unknown) => unknown = (answer) => answer,
        ): Promise<void> => {
          const outcome = await outcomeOf(call);
          if ('threw' in outcome) failures.push(`${what} threw (${outcome.threw}); it must answer ${JSON.stringify(expected)}`);
          else if (JSON.stringify(view(outcome.value)) !== JSON.stringify(expected))
            failures.push(`${what} answered ${JSON.stringify(outcome.value)}, not ${JSON.stringify(expected)}`);
        };
        const missing = { ...run.key, turnId: `${run.key.turnId}_missing` };
        const admittedAt = new Date(CLOCK_START_MS).toISOString();
        let launched = 0;
        const launch = (): void => {
          launched += 1;
        };
        await answers('read of a missing turn', () => store.read(missing.turnId), null);
        const next = {
          conversationId: missing.conversationId,
          turnId: missing.turnId,
          status: 'running' as const,
          revision: 2,
          effects: [{ effectId: 'call_pay', claim: 1, status: 'open' as const }],
        };
        await answers(
          'compareAndSwap of a missing turn at revision 1',
          () => store.compareAndSwap({ turnId: missing.turnId, expectedRevision: 1, next }),
          { swapped: false, current: null },
        );
        if (store.admitDispatch !== undefined) {
          const admitDispatch = store.admitDispatch.bind(store);
          const request = { caller: OWNER, conversationId: run.key.conversationId, claim: 1, admittedAt };
          await answers(
            'admitDispatch of a missing turn',
            () => admitDispatch({ ...request, turnId: missing.turnId, effectId: 'call_pay' }, launch),
            { admitted: false, code: 'unknown-turn' },
          );
          await answers(
            'admitDispatch of an effect the turn did not authorize',
            () => admitDispatch({ ...request, turnId: run.key.turnId, effectId: 'call_unknown' }, launch),
            { admitted: false, code: 'unknown-effect' },
          );
        }
        const worker = run.plainWorker();
        const execute = run.execute('immediate');
        for (const [turn, effectId, expected] of [
          [missing, 'call_pay', 'unknown-turn'],
          [run.key, 'call_unknown', 'unknown-effect'],
        ] as const) {
          const which = expected === 'unknown-turn' ? 'a missing turn' : 'an unknown effect';
          await answers(`claimEffect of ${which}`, () => worker.claimEffect({ ...turn, effectId }), expected, verdictOf);
          await answers(
            `dispatchEffect of ${which}`,
            () =>
              worker.dispatchEffect({
                caller: OWNER,
                claim: { conversationId: turn.conversationId, turnId: turn.turnId, effectId, claim: 1 },
                execute,
              }),
            expected,
            verdictOf,
          );
          await answers(
            `reconcileEffect of ${which}`,
            () => worker.reconcileEffect({ ...turn, effectId, result: 'verified' }),
            expected,
            verdictOf,
          );
        }
        await answers('cancelTurn of a missing turn', () => worker.cancelTurn(missing), 'unknown-turn', verdictOf);
        await answers('inspectTurn of a missing turn', () => worker.inspectTurn(missing), 'unknown-turn', verdictOf);
        if (launched > 0 || run.launches.length > 0)
          failures.push(`${launched + run.launches.length} launches for a missing turn or effect; none`);
        return [...failures, ...run.observed];
      },
    },
    raceCheck(
      'two workers dispatching one effect at once: one launch, its result stored',
      numRuns,
      ['call_pay'],
      async (run, pacing) => {
        await settleRace(
          pacing,
          Promise.all([
            run.claimAndDispatch(run.worker(), 'call_pay', 'scheduled'),
            run.claimAndDispatch(run.worker(), 'call_pay', 'scheduled'),
          ]),
        );
        if (run.launches.length === 0) run.observed.push('neither worker launched the effect');
      },
      null,
    ),
    raceCheck(
      'dispatch racing cancellation: every launch happens before the cancellation commits and is aborted by it, or there is none',
      numRuns,
      ['call_pay', 'call_mail', 'call_spare'],
      async (run, pacing) => {
        await settleRace(
          pacing,
          Promise.all([
            // Executions run until the cancellation answers: each one launched before it must have been aborted by then.
            run.claimAndDispatch(run.worker(), 'call_pay', 'until-cancelled'),
            run.claimAndDispatch(run.worker(), 'call_mail', 'until-cancelled'),
            run.cancel(run.worker()),
          ]),
        );
      },
      { spareEffectId: 'call_spare' },
    ),
    raceCheck(
      'completion racing cancellation: the result is stored or reported, and the turn stays cancelled',
      numRuns,
      ['call_pay', 'call_spare'],
      async (run, pacing) => {
        // The dispatch is admitted and launched before the cancellation starts: its completion races it.
        const dispatched = run.claimAndDispatch(run.worker(), 'call_pay', 'scheduled');
        await settleRace(pacing, Promise.race([dispatched, run.firstLaunch]));
        if (run.launches.length === 0) {
          await settleRace(pacing, dispatched);
          run.observed.push(`the dispatch never launched: ${JSON.stringify(run.dispatches)}`);
          return;
        }
        await settleRace(pacing, Promise.all([dispatched, run.cancel(run.worker())]));
      },
      { spareEffectId: 'call_spare' },
    ),
    {
      name: 'an effect declared while the turn runs (§6 rule 1): declared once across fresh workers and a restart, then claimed and launched once; after the cancellation committed a new one is turn-not-running and not in the turn',
      async run(harness) {
        const run = await createRun(harness, ['call_pay']);
        if (typeof run === 'string') return [run];
        const failures: string[] = [];
        const answers = async (what: string, call: () => Promise<unknown>, expected: unknown): Promise<void> => {
          const outcome = await outcomeOf(call);
          const found = 'threw' in outcome ? `a throw (${outcome.threw})` : verdictOf(outcome.value);
          if (found !== expected)
            failures.push(`${what} answered ${JSON.stringify('value' in outcome ? outcome.value : found)}, not ${expected}`);
        };
        const declare = (effectId: string) => () => run.worker().declareEffect({ ...run.key, effectId });
        await answers('declaring call_found', declare('call_found'), 'declared');
        await harness.restart?.();
        await answers('declaring call_found again on a fresh worker after a restart', declare('call_found'), 'already-declared');
        await answers('declaring call_pay, which the turn started with', declare('call_pay'), 'already-declared');
        const listed = await inspectedEffectIds(run);
        if (JSON.stringify(listed) !== '["call_pay","call_found"]')
          failures.push(`the turn lists ${JSON.stringify(listed)}, not call_pay then call_found once each`);
        await run.claimAndDispatch(run.worker(), 'call_found', 'immediate');
        const dispatched = run.dispatches[0]?.answer;
        if (dispatched === undefined || !dispatched.ok || dispatched.outcome !== 'completed')
          failures.push(`dispatching the declared effect answered ${JSON.stringify(dispatched)}, not completed`);
        const cancelled = await run.cancel(run.worker());
        if (!cancelled.ok) return [...failures, ...run.observed];
        await answers('declaring call_late after the cancellation committed', declare('call_late'), 'turn-not-running');
        await answers(
          'claiming call_late after its refused declaration',
          () => run.worker().claimEffect({ ...run.key, effectId: 'call_late' }),
          'unknown-effect',
        );
        const after = await inspectedEffectIds(run);
        if (JSON.stringify(after) !== '["call_pay","call_found"]')
          failures.push(`after the cancellation the turn lists ${JSON.stringify(after)}, not call_pay then call_found`);
        if (run.launches.length !== 1) failures.push(`${run.launches.length} launches; exactly one`);
        return [...failures, ...run.observed];
      },
    },
    raceCheck(
      'a declaration racing cancellation: declared only when it was ordered before the cancellation (the turn stays cancelled), else turn-not-running with nothing declared; a launch of the declared effect only before the commit',
      numRuns,
      ['call_spare'],
      async (run, pacing) => {
        let declared: unknown;
        const worker = run.worker();
        await settleRace(
          pacing,
          Promise.all([
            (async () => {
              declared = await worker.declareEffect({ ...run.key, effectId: 'call_found' });
              if (verdictOf(declared) === 'declared') await run.claimAndDispatch(worker, 'call_found', 'until-cancelled');
            })(),
            run.cancel(run.worker()),
          ]),
        );
        const verdict = verdictOf(declared);
        const listed = await inspectedEffectIds(run);
        if (typeof listed === 'string') run.observed.push(listed);
        else if (verdict === 'declared' && !listed.includes('call_found'))
          run.observed.push(`the declaration answered declared, but the turn lists ${JSON.stringify(listed)}`);
        else if (verdict === 'turn-not-running' && listed.includes('call_found'))
          run.observed.push(`the declaration answered turn-not-running, but the turn lists ${JSON.stringify(listed)}`);
        else if (verdict !== 'declared' && verdict !== 'turn-not-running')
          run.observed.push(`the declaration answered ${JSON.stringify(declared)}, not declared or turn-not-running`);
      },
      { spareEffectId: 'call_spare' },
      ['call_found'],
    ),
    raceCheck(
      'workers declaring at once: one id declared by two answers declared once and already-declared once, another declared beside them is kept; the turn lists each once',
      numRuns,
      [],
      async (run, pacing) => {
        const declare = async (effectId: string): Promise<unknown> => verdictOf(await run.worker().declareEffect({ ...run.key, effectId }));
        const answers = await settleRace(pacing, Promise.all([declare('call_a'), declare('call_a'), declare('call_b')]));
        const sameId = answers.slice(0, 2).map(String).sort();
        if (JSON.stringify(sameId) !== '["already-declared","declared"]' || answers[2] !== 'declared')
          run.observed.push(
            `the declarations answered ${JSON.stringify(answers)}; call_a: declared once and already-declared once, call_b: declared`,
          );
        const listed = await inspectedEffectIds(run);
        const counts =
          typeof listed === 'string' ? listed : ['call_a', 'call_b'].map((id) => listed.filter((entry) => entry === id).length);
        if (JSON.stringify(counts) !== '[1,1]') run.observed.push(`the turn lists ${JSON.stringify(listed)}: call_a and call_b once each`);
      },
      null,
      ['call_a', 'call_b'],
    ),
    {
      name: 'a run lease (§6 rule 12): renewed by its run, not by another; interruptTurn before the deadline is run-lease-held; past it one interruption, then already-interrupted; the woken owner cannot renew, declare, claim or admit, and nothing launches, after a restart too',
      async run(harness) {
        const run = await createRun(harness, ['call_pay', 'call_mail']);
        if (typeof run === 'string') return [run];
        const failures: string[] = [];
        const deadline = (elapsedMs: number): string => new Date(CLOCK_START_MS + elapsedMs).toISOString();
        const answered = (what: string, call: () => Promise<unknown>, expected: unknown, view?: (answer: unknown) => unknown) =>
          expectAnswer(failures, what, call, expected, view);
        const leaseOf = (answer: unknown): unknown => {
          if (typeof answer !== 'object' || answer === null) return answer;
          const { ok, outcome, code, run: lease, value } = answer as Record<string, unknown>;
          const reported = lease ?? (value as { readonly run?: unknown } | undefined)?.run;
          const at = (reported as { readonly leaseExpiresAt?: unknown } | undefined)?.leaseExpiresAt;
          return [ok === true ? (outcome ?? 'ok') : code, typeof at === 'string' ? new Date(at).toISOString() : at];
        };
        const claimed = await run.worker().claimEffect({ ...run.key, effectId: 'call_mail' });
        if (!claimed.ok || claimed.outcome !== 'claimed') return [`the claim answered ${JSON.stringify(claimed)}`];
        await answered('inspectTurn of the started turn', () => run.worker().inspectTurn(run.key), ['ok', deadline(RUN_LEASE_MS)], leaseOf);
        await harness.restart?.();
        // The owning run's worker: its snapshot cache still shows the turn running when it wakes below.
        const owner = run.worker();
        run.clock.elapsedMs = 10_000;
        await answered(
          'renewRunLease by the owning run',
          () => owner.renewRunLease({ ...run.key, runId: run.runId }),
          ['renewed', deadline(10_000 + RUN_LEASE_MS)],
          leaseOf,
        );
        await answered(
          'renewRunLease by another run',
          () => run.worker().renewRunLease({ ...run.key, runId: `${run.runId}_other` }),
          'run-lease-lost',
        );
        run.clock.elapsedMs = 10_000 + RUN_LEASE_MS - 1;
        await answered(
          'interruptTurn 1 ms before the deadline',
          () => run.worker().interruptTurn(run.key),
          ['run-lease-held', deadline(10_000 + RUN_LEASE_MS)],
          leaseOf,
        );
        run.clock.elapsedMs = 10_000 + RUN_LEASE_MS;
        const first = await answered('interruptTurn at the deadline', () => run.worker().interruptTurn(run.key), 'interrupted');
        const effects = (first as { readonly turn?: { readonly effects?: unknown } } | undefined)?.turn?.effects;
        if (
          JSON.stringify(effects) !==
          JSON.stringify([
            { effectId: 'call_pay', claim: 0, state: 'open' },
            { effectId: 'call_mail', claim: 1, state: 'open' },
          ])
        )
          failures.push(`the interruption listed ${JSON.stringify(effects)}, not call_pay and call_mail open (never admitted)`);
        await answered('a second interruptTurn', () => run.worker().interruptTurn(run.key), 'already-interrupted');
        // The owner wakes up: nothing it does may write or launch.
        await answered('the woken owner renewing', () => owner.renewRunLease({ ...run.key, runId: run.runId }), 'turn-not-running');
        await answered('the woken owner declaring', () => owner.declareEffect({ ...run.key, effectId: 'call_late' }), 'turn-not-running');
        await answered('the woken owner claiming', () => owner.claimEffect({ ...run.key, effectId: 'call_pay' }), 'turn-not-running');
        await answered(
          'the woken owner dispatching its claim',
          () => owner.dispatchEffect({ caller: OWNER, claim: claimed.claim, execute: run.execute('immediate') }),
          'turn-not-running',
        );
        await answered('inspectTurn of the interrupted turn', () => run.plainWorker().inspectTurn(run.key), 'interrupted', inspectedStatus);
        if (run.launches.length !== 0) failures.push(`${run.launches.length} launches after the interruption; none`);
        return [...failures, ...run.observed];
      },
    },
    raceCheck(
      'renewal racing interruption at the deadline: exactly one wins (renewed and run-lease-held, or interrupted and turn-not-running), and after an interruption the owner cannot declare',
      numRuns,
      [],
      async (run, pacing) => {
        run.clock.elapsedMs = RUN_LEASE_MS;
        const owner = run.worker();
        const answers = await settleRace(
          pacing,
          Promise.all([owner.renewRunLease({ ...run.key, runId: run.runId }), run.worker().interruptTurn(run.key)]),
        );
        const verdicts = answers.map(verdictOf);
        const won = JSON.stringify(verdicts);
        if (won === '["turn-not-running","interrupted"]') {
          const declared = verdictOf(await run.plainWorker().declareEffect({ ...run.key, effectId: 'call_late' }));
          if (declared !== 'turn-not-running')
            run.observed.push(`after losing to the interruption the owner's declaration answered ${String(declared)}`);
        } else if (won !== '["renewed","run-lease-held"]')
          run.observed.push(`the renewal and the interruption answered ${won}: exactly one must win`);
      },
      null,
    ),
    raceCheck(
      'two processes interrupting an expired turn at once: one interrupted, the other already-interrupted, with the same effects',
      numRuns,
      ['call_pay'],
      async (run, pacing) => {
        run.clock.elapsedMs = RUN_LEASE_MS;
        const answers = await settleRace(pacing, Promise.all([run.worker().interruptTurn(run.key), run.worker().interruptTurn(run.key)]));
        const verdicts = answers.map(verdictOf).map(String).sort();
        if (JSON.stringify(verdicts) !== '["already-interrupted","interrupted"]')
          run.observed.push(
            `the interruptions answered ${JSON.stringify(answers.map(verdictOf))}: one interrupted, one already-interrupted`,
          );
        const [left, right] = answers.map((answer) => (answer.ok ? JSON.stringify(answer.turn.effects) : answer.code));
        if (left !== right) run.observed.push(`the interruptions listed different effects: ${String(left)} and ${String(right)}`);
      },
      null,
    ),
    raceCheck(
      'dispatch racing interruption at the deadline: an effect launches only when the interruption found it admitted, never after the interruption committed',
      numRuns,
      ['call_pay', 'call_mail'],
      async (run, pacing) => {
        run.clock.elapsedMs = RUN_LEASE_MS;
        const [, , interrupted] = await settleRace(
          pacing,
          Promise.all([
            run.claimAndDispatch(run.worker(), 'call_pay', 'scheduled'),
            run.claimAndDispatch(run.worker(), 'call_mail', 'scheduled'),
            run.worker().interruptTurn(run.key),
          ]),
        );
        if (!interrupted.ok || interrupted.outcome !== 'interrupted') {
          run.observed.push(`the only interruption answered ${JSON.stringify(interrupted)}, not interrupted`);
          return;
        }
        for (const { effectId } of run.launches) {
          const state = interrupted.turn.effects.find((effect) => effect.effectId === effectId)?.state;
          if (state === 'open' || state === undefined)
            run.observed.push(
              `${effectId} launched, but the interruption found it ${String(state)}: it was admitted after the interruption committed`,
            );
        }
      },
      null,
    ),
    {
      name: 'finishing a turn (§6 rule 12): its run finishes it once, then already-finished with the stored status; another run is run-lease-lost; the finished turn is ended for every worker, after a restart and past the lease too: renewal, declaration, claim, admission and interruption are turn-not-running, a cancellation commits nothing, inspectTurn says completed, nothing launches',
      async run(harness) {
        const run = await createRun(harness, ['call_pay', 'call_mail']);
        if (typeof run === 'string') return [run];
        const failures: string[] = [];
        const answered = (what: string, call: () => Promise<unknown>, expected: unknown, view?: (answer: unknown) => unknown) =>
          expectAnswer(failures, what, call, expected, view);
        const finish = (runId: string, status: FinishedTurnStatus) => () => run.worker().finishTurn({ ...run.key, runId, status });
        const claimed = await run.worker().claimEffect({ ...run.key, effectId: 'call_mail' });
        if (!claimed.ok || claimed.outcome !== 'claimed') return [`the claim answered ${JSON.stringify(claimed)}`];
        await answered('finishTurn by another run', finish(`${run.runId}_other`, 'completed'), 'run-lease-lost');
        await answered('finishTurn by the owning run', finish(run.runId, 'completed'), 'finished');
        await answered('finishTurn again, saying failed', finish(run.runId, 'failed'), ['already-finished', 'completed'], (answer) => [
          verdictOf(answer),
          (answer as { readonly status?: unknown }).status,
        ]);
        await harness.restart?.();
        run.clock.elapsedMs = 2 * RUN_LEASE_MS;
        const worker = run.worker();
        await answered(
          'renewRunLease of the finished turn',
          () => worker.renewRunLease({ ...run.key, runId: run.runId }),
          'turn-not-running',
        );
        await answered(
          'declareEffect on the finished turn',
          () => worker.declareEffect({ ...run.key, effectId: 'call_late' }),
          'turn-not-running',
        );
        await answered(
          'claimEffect on the finished turn',
          () => worker.claimEffect({ ...run.key, effectId: 'call_pay' }),
          'turn-not-running',
        );
        await answered(
          'dispatching a claim of the finished turn',
          () => worker.dispatchEffect({ caller: OWNER, claim: claimed.claim, execute: run.execute('immediate') }),
          'turn-not-running',
        );
        await answered('interruptTurn past the lease', () => worker.interruptTurn(run.key), 'turn-not-running');
        await answered(
          'cancelTurn of the finished turn',
          () => worker.cancelTurn(run.key),
          ['cancelled', false],
          (answer) => [verdictOf(answer), (answer as { readonly committed?: unknown }).committed],
        );
        await answered('inspectTurn of the finished turn', () => run.plainWorker().inspectTurn(run.key), 'completed', inspectedStatus);
        if (run.launches.length !== 0) failures.push(`${run.launches.length} launches after the finish; none`);
        return [...failures, ...run.observed];
      },
    },
    raceCheck(
      'finish racing interruption at the deadline: exactly one ends the turn (finished and turn-not-running, or turn-not-running and interrupted)',
      numRuns,
      [],
      async (run, pacing) => {
        run.clock.elapsedMs = RUN_LEASE_MS;
        const answers = await settleRace(
          pacing,
          Promise.all([
            run.worker().finishTurn({ ...run.key, runId: run.runId, status: 'completed' }),
            run.worker().interruptTurn(run.key),
          ]),
        );
        const won = JSON.stringify(answers.map(verdictOf));
        if (won !== '["finished","turn-not-running"]' && won !== '["turn-not-running","interrupted"]')
          run.observed.push(`the finish and the interruption answered ${won}: exactly one must end the turn`);
        const status = inspectedStatus(await run.plainWorker().inspectTurn(run.key));
        if (status !== (won.startsWith('["finished"') ? 'completed' : 'interrupted'))
          run.observed.push(`after ${won} the turn is ${String(status)}`);
      },
      null,
    ),
    {
      name: 'listing running turns (the sweeper’s read, §6 rule 12): every running turn once, in code point order, strictly after afterTurnId, at most limit per page; never a cancelled, interrupted or finished one; a request it cannot read is a TypeError',
      async run(harness) {
        const store = harness.adapter({ onAbort: () => undefined }).store;
        // Optional in the contract: a store without it has nothing to check here (the host's sweeper says sweep-unsupported).
        if (store?.listRunningTurns === undefined) return [];
        const list = store.listRunningTurns.bind(store);
        const label = 'listing';
        const created: Run[] = [];
        for (let index = 0; index < 6; index += 1) {
          const run = await createRun(harness, [], undefined, label);
          if (typeof run === 'string') return [run];
          created.push(run);
        }
        const [cancelled, interrupted, finished, ...running] = created as [Run, Run, Run, ...Run[]];
        const failures: string[] = [];
        await expectAnswer(failures, 'cancelTurn', () => cancelled.plainWorker().cancelTurn(cancelled.key), 'cancelled');
        interrupted.clock.elapsedMs = RUN_LEASE_MS;
        await expectAnswer(failures, 'interruptTurn', () => interrupted.plainWorker().interruptTurn(interrupted.key), 'interrupted');
        const finishing = { ...finished.key, runId: finished.runId, status: 'failed' as const };
        await expectAnswer(failures, 'finishTurn', () => finished.plainWorker().finishTurn(finishing), 'finished');
        // This process's listed turns all start with the prefix; the walk starts just before them and ends past them.
        const prefix = `turn_conformance_${RUN_ID}_${label}`;
        const ids = new Set(created.map((run) => run.key.turnId));
        const listed: string[] = [];
        let afterTurnId = prefix;
        for (let pages = 0; pages < 100; pages += 1) {
          const page = await outcomeOf(() => list({ afterTurnId, limit: 2 }));
          if ('threw' in page) return [...failures, `listRunningTurns threw ${page.threw}`];
          const turnsOfPage = page.value as readonly { readonly record: { readonly turnId: string; readonly status: string } }[];
          if (turnsOfPage.length > 2) failures.push(`a page of limit 2 held ${turnsOfPage.length} turns`);
          for (const { record } of turnsOfPage) {
            if (record.turnId <= afterTurnId) failures.push(`${record.turnId} came after ${afterTurnId}, not in code point order`);
            if (record.status !== 'running') failures.push(`${record.turnId} was listed ${record.status}`);
            afterTurnId = record.turnId;
            if (ids.has(record.turnId)) listed.push(record.turnId);
          }
          if (turnsOfPage.length === 0 || !afterTurnId.startsWith(prefix)) break;
        }
        const expected = running.map((run) => run.key.turnId).sort();
        if (JSON.stringify(listed) !== JSON.stringify(expected))
          failures.push(`the running turns were listed as ${JSON.stringify(listed)}, not ${JSON.stringify(expected)}`);
        for (const request of [null, { limit: 0 }, { limit: 1.5 }, { limit: '2' }, { afterTurnId: 'not an id', limit: 2 }]) {
          const answer = await outcomeOf(() => list(request as unknown as ListRunningTurnsRequest));
          if (!('threw' in answer) || !answer.threw.startsWith('TypeError'))
            failures.push(
              `listRunningTurns(${JSON.stringify(request)}) ${'threw' in answer ? `threw ${answer.threw}` : 'resolved'}, not a TypeError`,
            );
        }
        return failures;
      },
    },
  ];
}
