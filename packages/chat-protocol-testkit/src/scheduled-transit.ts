/** Scheduling one store call's request and answer through fast-check's scheduler: how the race checks reach a store. */
import type { Scheduler } from 'fast-check';

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
export function pacedAct(pauses: Iterator<number>): (release: () => Promise<void>) => Promise<void> {
  return async (release) => {
    const next = pauses.next();
    for (let pause = next.done === true ? 0 : next.value; pause > 0; pause -= 1) await new Promise<void>((resolve) => setImmediate(resolve));
    return release();
  };
}
