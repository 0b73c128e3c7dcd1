/** Scheduling one store call's request and answer through fast-check's scheduler: how the race checks reach a store. */
import fc, { type Scheduler } from 'fast-check';

/**
 * Wraps one adapter method for the scheduler: the request's transit is a
 * `scheduleFunction` call (it reaches the database when the scheduler says),
 * then the database runs it (its fences pause through the scheduler), then the
 * answer's transit is scheduled too. Scheduling the whole call as one task
 * would deadlock: the scheduler awaits a task that waits on its fence pauses.
 */
export function transit<Args extends unknown[], Value>(scheduler: Scheduler, name: string, method: (...args: Args) => Promise<Value>): (...args: Args) => Promise<Value> {
  const request = scheduler.scheduleFunction(Object.defineProperty((...args: Args) => Promise.resolve(args), 'name', { value: name }));
  return async (...args: Args): Promise<Value> => {
    const delivered = await request(...args);
    let answer: Value;
    try {
      answer = await method(...delivered);
    } catch (error) {
      await scheduler.schedule(Promise.resolve(), `${name} failed`);
      throw error;
    }
    return scheduler.schedule(Promise.resolve(answer), `${name} answered`);
  };
}

/**
 * The scheduler's act for waits over a host's store: before each choice of the
 * next task, as many macrotasks pass as the next number of `pauses` says
 * (drawn by fast-check, so a failing run replays and shrinks). With none, the
 * choice is among the calls waiting now, so two requests can leave in the same
 * tick and overlap inside the store; with some, store calls whose I/O finished
 * meanwhile have scheduled their answers and join the choice. Without pauses,
 * answers of real I/O arrive one per macrotask and the scheduler only ever has
 * one task to release.
 */
function pacedAct(pauses: Iterator<number>): (release: () => Promise<void>) => Promise<void> {
  return async (release) => {
    const next = pauses.next();
    for (let pause = next.done === true ? 0 : next.value; pause > 0; pause -= 1) await new Promise<void>((resolve) => setImmediate(resolve));
    return release();
  };
}

/** A race's scheduler, and the act that paces its choices (see {@link pacedAct}). */
export interface Pacing {
  readonly scheduler: Scheduler;
  readonly act: (release: () => Promise<void>) => Promise<void>;
}

/**
 * Runs a race property `numRuns` times, each run with its own paced scheduler;
 * `runOne` resolves with that run's failures. Resolves with the failures of the
 * last failing run (a later shrink attempt may pass), `[]` when every run held.
 */
export async function checkRaces(numRuns: number, runOne: (pacing: Pacing) => Promise<readonly string[]>): Promise<readonly string[]> {
  let failures: readonly string[] = [];
  const result = await fc.check(
    fc.asyncProperty(fc.scheduler(), fc.infiniteStream(fc.nat({ max: 2 })), async (scheduler, pauses) => {
      const found = await runOne({ scheduler, act: pacedAct(pauses[Symbol.iterator]()) });
      if (found.length > 0) failures = found;
      return found.length === 0;
    }),
    { numRuns },
  );
  if (!result.failed) return [];
  return failures.length > 0 ? failures : [`the property failed: ${String(result.errorInstance ?? 'no failure recorded')}`];
}
