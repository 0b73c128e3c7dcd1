/**
 * A turn recovery adapter whose every call passes through fast-check's
 * scheduler: the race checks' fresh workers, and a host's own race tests.
 * It owns the wrapping only; the adapter and its store stay the host's.
 */
import type { AbortRequest, AuthorizationRequest, TurnRecoveryAdapter, TurnStore } from '@papercusp/chat-protocol-recovery';
import type { Scheduler } from 'fast-check';
import { scheduleTransit } from './scheduled-transit.js';

/**
 * Wraps every call of `adapter` (`authorize`, the store's `read`,
 * `compareAndSwap` and `admitDispatch`, `replayWindow`, `abort`) with
 * {@link scheduleTransit}: each request reaches the adapter, and each answer
 * comes back, when the scheduler says. Give each worker (`new TurnRecovery`)
 * its own wrapped adapter over the same store. The declaration is passed on
 * unchanged, and a missing seam stays missing; the input is not modified.
 */
export function scheduleTurnRecoveryAdapter<Result, Caller>(
  adapter: TurnRecoveryAdapter<Result, Caller>,
  scheduler: Scheduler,
): TurnRecoveryAdapter<Result, Caller> {
  const { store, abort, replayWindow } = adapter;
  let scheduledStore: TurnStore<Result, Caller> | undefined;
  if (store !== undefined) {
    const admitDispatch = store.admitDispatch;
    scheduledStore = {
      read: scheduleTransit(scheduler, 'read', store.read.bind(store)),
      compareAndSwap: scheduleTransit(scheduler, 'compareAndSwap', store.compareAndSwap.bind(store)),
      ...(admitDispatch === undefined ? {} : { admitDispatch: scheduleTransit(scheduler, 'admitDispatch', admitDispatch.bind(store)) }),
    };
  }
  return {
    capabilities: adapter.capabilities,
    authorize: scheduleTransit(scheduler, 'authorize', async (request: AuthorizationRequest<Caller>) => adapter.authorize(request)),
    ...(scheduledStore === undefined ? {} : { store: scheduledStore }),
    ...(replayWindow === undefined ? {} : { replayWindow: scheduleTransit(scheduler, 'replayWindow', replayWindow.bind(adapter)) }),
    ...(abort === undefined
      ? {}
      : { abort: scheduleTransit(scheduler, 'abort', async (request: AbortRequest) => abort.call(adapter, request)) }),
  };
}
