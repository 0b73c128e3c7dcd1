/**
 * Scheduling one store call's request and answer through fast-check's
 * scheduler, and running a race property with a paced scheduler: how the race
 * checks (and a host's own race tests, through `/races`) reach a store whose
 * I/O is real. fast-check is imported here and by the entries that need it,
 * never by the package root.
 */
import fc, { type Scheduler } from 'fast-check';

/**
 * Wraps one adapter method for the scheduler: the request's transit is a
 * `scheduleFunction` call (it reaches the database when the scheduler says),
 * then the database runs it (its fences pause through the scheduler), then the
 * answer's transit is scheduled too, also when the method throws (the throw
 * is passed on). Scheduling the whole call as one task would deadlock: the
 * scheduler awaits a task that waits on its fence pauses. `name` labels the
 * tasks in a failing run's report.
 */
export function scheduleTransit<Args extends unknown[], Value>(
  scheduler: Scheduler,
  name: string,
  method: (...args: Args) => Promise<Value>,
): (...args: Args) => Promise<Value> {
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
    for (let pause = next.done === true ? 0 : next.value; pause > 0; pause -= 1)
      await new Promise<void>((resolve) => setImmediate(resolve));
    return release();
  };
}

/** A race's scheduler, and the act that paces its choices: before each choice of the next task, 0–2 macrotasks pass (drawn by fast-check). */
export interface RacePacing {
  readonly scheduler: Scheduler;
  readonly act: (release: () => Promise<void>) => Promise<void>;
}

/**
 * Waits for `promise` while the run's scheduler releases its tasks at the
 * run's pace. Use it for every wait inside a race, so the scheduler (not the
 * order the calls were started in) decides who goes first.
 */
export function settleRace<Value>(pacing: RacePacing, promise: Promise<Value>): Promise<Value> {
  return pacing.scheduler.waitFor(promise, pacing.act);
}

/** Options of {@link checkRaces}. */
export interface CheckRacesOptions {
  /** fast-check's seed: the same seed explores the same interleavings (default: a new one per call, so CI explores new ones each run). */
  readonly seed?: number;
}

/**
 * Runs a race property `numRuns` times, each run with its own paced scheduler;
 * `runOne` resolves with that run's failures (describe what broke). Resolves
 * with the failures of the last failing run (a later shrink attempt may pass),
 * `[]` when every run held; a run that throws counts as failing with the
 * error's text. Never rejects for a failing run.
 */
export async function checkRaces(
  numRuns: number,
  runOne: (pacing: RacePacing) => Promise<readonly string[]>,
  options: CheckRacesOptions = {},
): Promise<readonly string[]> {
  let failures: readonly string[] = [];
  const result = await fc.check(
    fc.asyncProperty(fc.scheduler(), fc.infiniteStream(fc.nat({ max: 2 })), async (scheduler, pauses) => {
      const found = await runOne({ scheduler, act: pacedAct(pauses[Symbol.iterator]()) });
      if (found.length > 0) failures = found;
      return found.length === 0;
    }),
    { numRuns, ...(options.seed === undefined ? {} : { seed: options.seed }) },
  );
  if (!result.failed) return [];
  return failures.length > 0 ? failures : [`the property failed: ${String(result.errorInstance ?? 'no failure recorded')}`];
}
