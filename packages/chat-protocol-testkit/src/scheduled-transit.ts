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
