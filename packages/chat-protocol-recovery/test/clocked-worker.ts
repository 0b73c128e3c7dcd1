/**
 * The lease tests' worker: a `TurnRecovery` over a given store whose clock
 * reads a mutable offset from a fixed instant, so a test moves time by
 * assignment. It owns only that wiring; each test file picks its leases.
 */
import type { TurnRecoveryAdapter, TurnStore } from '../src/adapter.js';
import type { TurnRecoveryOptions } from '../src/turn-recovery-options.js';
import { TurnRecovery } from '../src/turn-recovery.js';
import { FULL } from './stub-store.js';

/** The instant a test's clock starts at. */
export const T0 = Date.parse('2030-01-01T00:00:00.000Z');

/** The RFC 3339 timestamp `offsetMs` milliseconds after T0. */
export const at = (offsetMs: number): string => new Date(T0 + offsetMs).toISOString();

/** A worker over `store` whose clock reads `clock.now` milliseconds after T0; every caller but `stranger` is authorized. */
export function clockedWorker(
  store: TurnStore<string, string>,
  clock: { now: number },
  options: TurnRecoveryOptions,
  extra: Partial<TurnRecoveryAdapter<string, string>> = {},
): TurnRecovery<string, string> {
  const adapter: TurnRecoveryAdapter<string, string> = {
    capabilities: FULL,
    authorize: ({ caller }) => caller !== 'stranger',
    store,
    ...extra,
  };
  return new TurnRecovery<string, string>(adapter, { clock: () => at(clock.now), ...options });
}
