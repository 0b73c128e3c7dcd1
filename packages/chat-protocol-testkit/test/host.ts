/**
 * The host side of the scenario tests: a cluster of fresh workers (one
 * `TurnRecovery` per worker, each with its own connection to one fake
 * database) and the host's executions, registered with their own
 * AbortController so the abort hook reaches them from any worker.
 */
import type { ChatCapabilities } from '@papercusp/chat-protocol-core';
import type { EffectExecution, TurnRecovery as TurnRecoveryType } from '@papercusp/chat-protocol-recovery';
import { TurnRecovery } from '@papercusp/chat-protocol-recovery';
import { createFakeDatabase, createFakeTurnStore, type FakeDatabase, type FakeDatabaseOptions, type FakeTurnStore } from '../src/index.js';

export const CONVERSATION_ID = 'conv_1';
export const TURN_ID = 'turn_1';
export const OWNER = 'owner';
export const TURN = { caller: OWNER, conversationId: CONVERSATION_ID, turnId: TURN_ID } as const;
/** The admission lease of every worker of a cluster (DESIGN §6.11). */
export const ADMISSION_LEASE_MS = 1000;
/** The run lease every cluster worker uses (§6 rule 12), longer than the admission lease so both orders come up. */
export const RUN_LEASE_MS = 3000;
/** The cluster clock's start: every worker reads `CLOCK_START + clock.elapsedMs`. */
const CLOCK_START_MS = Date.parse('2030-01-01T00:00:00.000Z');
/** The cluster clock's instant `elapsedMs` after its start, as the workers read it. */
export const clusterInstant = (elapsedMs: number): string => new Date(CLOCK_START_MS + elapsedMs).toISOString();

/** How an execution ends: at once with its result, or when the test settles it (or the abort hook aborts it). */
type Behaviour = 'immediate' | 'deferred' | 'fails';

interface Running {
  readonly controller: AbortController;
  readonly resolve: (result: string) => void;
  readonly reject: (reason: unknown) => void;
}

export interface Worker {
  readonly recovery: TurnRecoveryType<string, string>;
  readonly store: FakeTurnStore<string>;
}

export interface Cluster {
  readonly database: FakeDatabase;
  /** The clock every worker reads, in milliseconds after `CLOCK_START_MS`; only a test moves it. */
  readonly clock: { elapsedMs: number };
  /** Effect ids, in the order their executions started. */
  readonly launches: string[];
  /** Results executions produced, by effect id. */
  readonly produced: Map<string, string>;
  /** A fresh worker over the same database. */
  worker(options?: { capabilities?: ChatCapabilities; withoutAdmissionSeam?: boolean }): Worker;
  /** The host's execution for one dispatch. */
  execute(behaviour?: Behaviour): (execution: EffectExecution) => Promise<string>;
  /** Resolves when the next execution starts, whichever effect it is. */
  nextLaunch(): Promise<void>;
  /** Resolves once an execution of `effectId` has started. */
  launched(effectId: string): Promise<void>;
  /** Settles a deferred execution with its result. */
  settle(effectId: string): void;
  /** Fails a deferred execution: the effect's outcome becomes unknown. */
  fail(effectId: string): void;
  /** Effects whose executions are still running. */
  running(): string[];
  /** The store seen without a round trip. */
  peek(): ReturnType<FakeTurnStore<string>['peek']>;
}

/** The result an execution of `effectId` produces. */
export const resultOf = (effectId: string): string => `done:${effectId}`;

export function createCluster(options: FakeDatabaseOptions = {}): Cluster {
  const database = createFakeDatabase(options);
  const launches: string[] = [];
  const produced = new Map<string, string>();
  const executions = new Map<string, Running>();
  const waiters = new Map<string, (() => void)[]>();
  let nextLaunchWaiters: (() => void)[] = [];
  const setup = createFakeTurnStore<string>(database);
  setup.grant(CONVERSATION_ID, OWNER);
  const onAbort = (request: { effectIds: readonly string[] }): void => {
    for (const effectId of request.effectIds) executions.get(effectId)?.controller.abort();
  };
  const clock = { elapsedMs: 0 };
  const recoveryOptions = { admissionLeaseMs: ADMISSION_LEASE_MS, runLeaseMs: RUN_LEASE_MS, clock: () => clusterInstant(clock.elapsedMs) };
  return {
    database,
    clock,
    launches,
    produced,
    worker(workerOptions = {}) {
      const store = createFakeTurnStore<string>(database);
      const adapter = store.adapter({
        onAbort,
        ...(workerOptions.capabilities === undefined ? {} : { capabilities: workerOptions.capabilities }),
        ...(workerOptions.withoutAdmissionSeam === true ? { withoutAdmissionSeam: true } : {}),
      });
      return { recovery: new TurnRecovery<string, string>(adapter, recoveryOptions), store };
    },
    execute(behaviour: Behaviour = 'immediate') {
      return (execution) => {
        launches.push(execution.effectId);
        for (const wake of waiters.get(execution.effectId) ?? []) wake();
        for (const wake of nextLaunchWaiters) wake();
        nextLaunchWaiters = [];
        waiters.delete(execution.effectId);
        if (behaviour === 'fails') return Promise.reject(new Error('gateway timeout'));
        if (behaviour === 'immediate') {
          produced.set(execution.effectId, resultOf(execution.effectId));
          return Promise.resolve(resultOf(execution.effectId));
        }
        // Registered synchronously, before the first await: the abort hook can reach it at once.
        const controller = new AbortController();
        return new Promise<string>((resolve, reject) => {
          executions.set(execution.effectId, { controller, resolve, reject });
          controller.signal.addEventListener('abort', () => {
            executions.delete(execution.effectId);
            reject(new Error('aborted'));
          });
        });
      };
    },
    nextLaunch() {
      return new Promise<void>((resolve) => nextLaunchWaiters.push(resolve));
    },
    launched(effectId) {
      if (launches.includes(effectId)) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.set(effectId, [...(waiters.get(effectId) ?? []), resolve]));
    },
    settle(effectId) {
      const running = executions.get(effectId);
      if (running === undefined) return;
      executions.delete(effectId);
      produced.set(effectId, resultOf(effectId));
      running.resolve(resultOf(effectId));
    },
    fail(effectId) {
      const running = executions.get(effectId);
      if (running === undefined) return;
      executions.delete(effectId);
      running.reject(new Error('execution failed'));
    },
    running: () => [...executions.keys()],
    peek: () => setup.peek(TURN_ID),
  };
}
