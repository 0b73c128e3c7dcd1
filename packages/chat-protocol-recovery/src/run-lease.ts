/**
 * The run lease of DESIGN §6 rule 12: how long a turn's owning run may go
 * without renewing before any process may interrupt the turn, and the pure
 * judgements over it (the deadline a renewal writes, whether a record is past
 * its lease). The instant to judge at is given, never read here.
 */
import { isZonedTimestamp } from '@papercusp/chat-protocol-core';
import { readFields } from '@papercusp/chat-protocol-core/internal';
import type { RunLease, TurnRecord } from './turn-record.js';

/**
 * The default `runLeaseMs`: 30 seconds. A live run renews well within it (every
 * third of it, say), and a turn whose process died ends within it plus one
 * sweep, while the person still waits for it.
 */
export const DEFAULT_RUN_LEASE_MS = 30_000;

/**
 * The deadline a lease taken or renewed at `now` runs to: `leaseMs` later, as
 * an RFC 3339 UTC timestamp. It never goes below `current` (a renewal by a
 * worker whose clock lags keeps the later deadline).
 */
export function runLeaseDeadline(now: string, leaseMs: number, current?: RunLease): string {
  const deadline = Date.parse(now) + leaseMs;
  const held = current !== undefined && isZonedTimestamp(current.leaseExpiresAt) ? Date.parse(current.leaseExpiresAt) : -Infinity;
  return new Date(Math.max(deadline, held)).toISOString();
}

/**
 * Whether `record`'s run lease is over at `now` (a turn record, or anything
 * naming a run the way one does, such as a turn-status answer): `now` is at or past
 * `leaseExpiresAt`. A record without a run, or with a deadline that is not an
 * RFC 3339 timestamp, is over: no owner can be known to be alive (the rule of
 * an unreadable `admittedAt`, §6.11). `interruptTurn` judges with it under the
 * fence; a host's sweeper judges each turn `listRunningTurns` lists with it
 * before interrupting. Never throws: a record or run that cannot be read (a
 * throwing getter, a Proxy) has no readable deadline, and a `now` that is no
 * RFC 3339 timestamp is past none.
 */
export function isRunLeaseExpired(record: TurnRecord<unknown> | { readonly run?: RunLease }, now: string): boolean {
  const run = readFields(record, ['run'])?.run;
  const deadline = run === undefined ? undefined : readFields(run, ['leaseExpiresAt'])?.leaseExpiresAt;
  if (!isZonedTimestamp(deadline)) return true;
  return isZonedTimestamp(now) && Date.parse(now) >= Date.parse(deadline);
}
