/**
 * An interaction store whose every call passes through fast-check's
 * scheduler: the interaction race checks' fresh workers, and a host's own race
 * tests. It owns the wrapping only; the store stays the host's.
 */
import type { InteractionStore } from '@papercusp/chat-protocol-interactions';
import type { Scheduler } from 'fast-check';
import { scheduleTransit } from './scheduled-transit.js';

/**
 * Wraps `transact` and `read` of `store` with {@link scheduleTransit}: each
 * request reaches the store, and each answer comes back, when the scheduler
 * says (inside the store, its own fence decides what waits). Give each worker
 * (`new InteractionResolver`) its own wrapped connection; the input is not
 * modified.
 */
export function scheduleInteractionStore<Card, Caller>(
  store: InteractionStore<Card, Caller>,
  scheduler: Scheduler,
): InteractionStore<Card, Caller> {
  return {
    // One generic method: the wrapper keeps its signature, whatever result type each call decides.
    transact: scheduleTransit(scheduler, 'transact', store.transact.bind(store)) as InteractionStore<Card, Caller>['transact'],
    read: scheduleTransit(scheduler, 'read', store.read.bind(store)),
  };
}
