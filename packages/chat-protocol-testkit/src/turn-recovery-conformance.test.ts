import {
  admissionRefusal,
  readListRunningTurnsRequest,
  type AbortRequest,
  type AdmitDispatchRequest,
  type AdmitDispatchResult,
  type EffectAdmission,
  type StoredTurn,
  type TurnRecord,
  type TurnStore,
} from '@papercusp/chat-protocol-recovery';
import { LIGHTWEIGHT_CHAT_CAPABILITIES } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { createFakeDatabase, createFakeTurnStore } from './index.js';
import { describeTurnRecoveryConformance, turnRecoveryChecks, type TurnRecoveryHarness } from './vitest.js';
import { runs } from '../../../test-support/property-runs.js';

function fakeHarness(): TurnRecoveryHarness {
  const database = createFakeDatabase();
  return {
    adapter: ({ onAbort }) => createFakeTurnStore<string>(database).adapter({ onAbort }),
    grant: (conversationId, caller) => createFakeTurnStore(database).grant(conversationId, caller),
    restart: () => database.restart(),
  };
}

// The fake store keeps the contract: every check passes, races at 200 interleavings (the issue's
// 1,000 and more in `pnpm soak`).
describeTurnRecoveryConformance('the testkit fake store', fakeHarness, { numRuns: runs(200) });

/** One I/O round trip of a host store: other work runs meanwhile. */
const roundTrip = () => new Promise<void>((resolve) => setImmediate(resolve));

const CAPABILITIES = {
  ...LIGHTWEIGHT_CHAT_CAPABILITIES,
  persistedHistory: true,
  persistedDecisions: true,
  completedToolCheckpoints: true,
  interruptedTurnRecovery: true,
};

/** A host's tables: turn records and per-effect admissions, kept apart as a real schema would. */
interface Tables {
  readonly records: Map<string, TurnRecord<string>>;
  readonly admissions: Map<string, readonly EffectAdmission[]>;
  readonly grants: Set<string>;
}

type OnAbort = (request: AbortRequest) => void | Promise<void>;

/** What each broken variant gets wrong: one worker's store writes (made once per adapter) and its abort hook. */
interface Variant {
  writes?: (
    tables: Tables,
    onAbort: OnAbort,
  ) => Pick<TurnStore<string, string>, 'compareAndSwap'> & Required<Pick<TurnStore<string, string>, 'admitDispatch'>>;
  read?: (tables: Tables) => TurnStore<string, string>['read'];
  list?: (tables: Tables) => NonNullable<TurnStore<string, string>['listRunningTurns']>;
  abort?: (onAbort: OnAbort) => OnAbort;
}

const snapshot = (tables: Tables, turnId: string): StoredTurn<string> | null => {
  const record = tables.records.get(turnId);
  return record === undefined ? null : structuredClone({ record, admissions: tables.admissions.get(turnId) ?? [] });
};

// Each check below runs with nothing between its read and its write: JavaScript's run-to-completion is the fence.
const atomicCompareAndSwap =
  (tables: Tables) => async (request: { turnId: string; expectedRevision: number; next: TurnRecord<string> }) => {
    await roundTrip();
    const current = snapshot(tables, request.turnId);
    if ((current?.record.revision ?? 0) !== request.expectedRevision) return { swapped: false as const, current };
    tables.records.set(request.turnId, structuredClone(request.next));
    return { swapped: true as const, turn: snapshot(tables, request.turnId) ?? { record: request.next, admissions: [] } };
  };

/** The contract's admission checks on a snapshot, as the refusal a store answers; `null` when admission may go ahead. */
const refusalOf = (tables: Tables, turn: StoredTurn<string> | null, request: AdmitDispatchRequest<string>): AdmitDispatchResult | null => {
  const code = admissionRefusal(turn?.record, request, {
    granted: tables.grants.has(`${request.conversationId}/${request.caller}`),
    admitted: turn?.admissions.some((admission) => admission.effectId === request.effectId) ?? false,
  });
  return code === null ? null : { admitted: false, code };
};

/** How a store turns the admission request into the row it keeps; a correct one keeps `admittedAt` as given. */
type AdmissionRow = (request: AdmitDispatchRequest<string>) => EffectAdmission;
const keptAdmission: AdmissionRow = ({ effectId, claim, admittedAt }) => ({ effectId, claim, admittedAt });

const recordAdmission = (tables: Tables, request: AdmitDispatchRequest<string>, row: AdmissionRow = keptAdmission): void => {
  tables.admissions.set(request.turnId, [...(tables.admissions.get(request.turnId) ?? []), row(request)]);
};

const atomicAdmitDispatch =
  (tables: Tables, row: AdmissionRow = keptAdmission) =>
  async (request: AdmitDispatchRequest<string>, launch: () => void) => {
    await roundTrip();
    const refusal = refusalOf(tables, snapshot(tables, request.turnId), request);
    if (refusal !== null) return refusal;
    recordAdmission(tables, request, row);
    launch();
    return { admitted: true as const };
  };

/** The running turns after `afterTurnId` (code point order), at most `limit`; `keep` decides which records a page holds. */
const listTurns =
  (tables: Tables, keep: (record: TurnRecord<string>, afterTurnId: string) => boolean) =>
  async (given: Parameters<NonNullable<TurnStore<string, string>['listRunningTurns']>>[0]): Promise<readonly StoredTurn<string>[]> => {
    await roundTrip();
    const request = readListRunningTurnsRequest(given);
    if (request === undefined) throw new TypeError('listRunningTurns: expected { afterTurnId?, limit }');
    return [...tables.records.values()]
      .filter((record) => keep(record, request.afterTurnId ?? ''))
      .sort((left, right) => (left.turnId < right.turnId ? -1 : 1))
      .slice(0, request.limit)
      .flatMap((record) => snapshot(tables, record.turnId) ?? []);
  };
const runningAfter = (record: TurnRecord<string>, afterTurnId: string): boolean =>
  record.status === 'running' && record.turnId > afterTurnId;

/** A host store over plain maps, every call one I/O round trip; `variant` replaces what a broken host gets wrong. */
function mapHarness(variant: Variant = {}): () => TurnRecoveryHarness {
  return () => {
    const tables: Tables = { records: new Map(), admissions: new Map(), grants: new Set() };
    return {
      adapter: ({ onAbort }) => {
        const writes = variant.writes?.(tables, onAbort) ?? {
          compareAndSwap: atomicCompareAndSwap(tables),
          admitDispatch: atomicAdmitDispatch(tables),
        };
        return {
          capabilities: CAPABILITIES,
          authorize: async ({ conversationId, caller }) => {
            await roundTrip();
            return tables.grants.has(`${conversationId}/${caller}`);
          },
          store: {
            read:
              variant.read?.(tables) ??
              (async (turnId) => {
                await roundTrip();
                return snapshot(tables, turnId);
              }),
            listRunningTurns: variant.list?.(tables) ?? listTurns(tables, runningAfter),
            ...writes,
          },
          abort: (variant.abort ?? ((hook) => hook))(onAbort),
        };
      },
      grant: (conversationId, caller) => {
        tables.grants.add(`${conversationId}/${caller}`);
      },
    };
  };
}

// (1) Admission recorded after launching: the launch goes out first, the checks and the record a round trip later.
const launchBeforeAdmission = mapHarness({
  writes: (tables) => ({
    compareAndSwap: atomicCompareAndSwap(tables),
    admitDispatch: async (request, launch) => {
      launch();
      await roundTrip();
      const refusal = refusalOf(tables, snapshot(tables, request.turnId), request);
      if (refusal !== null) return refusal;
      recordAdmission(tables, request);
      return { admitted: true };
    },
  }),
});

// (2) The host's cancel path aborts its executions, then commits the cancellation a round trip later; its abort
// hook does nothing more, since "it already aborted". A dispatch admitted in between is never aborted.
const abortBeforeCommit = mapHarness({
  writes: (tables, onAbort) => {
    const commit = atomicCompareAndSwap(tables);
    const compareAndSwap: TurnStore<string, string>['compareAndSwap'] = async (request) => {
      const current = snapshot(tables, request.turnId);
      if (request.next.status === 'cancelled' && current !== null && current.record.status === 'running') {
        const effectIds = current.record.effects
          .filter((effect) => effect.status === 'open' && current.admissions.some((admission) => admission.effectId === effect.effectId))
          .map((effect) => effect.effectId);
        await onAbort({ conversationId: current.record.conversationId, turnId: request.turnId, effectIds });
      }
      return commit(request);
    };
    return { compareAndSwap, admitDispatch: atomicAdmitDispatch(tables) };
  },
  abort: () => () => undefined,
});

// (3) A read followed by an unconditional update: the revision is compared on the read, not in the write.
const readThenWrite = (tables: Tables) => ({
  compareAndSwap: async (request: { turnId: string; expectedRevision: number; next: TurnRecord<string> }) => {
    await roundTrip();
    const current = snapshot(tables, request.turnId);
    if ((current?.record.revision ?? 0) !== request.expectedRevision) return { swapped: false as const, current };
    await roundTrip();
    tables.records.set(request.turnId, structuredClone(request.next));
    return { swapped: true as const, turn: snapshot(tables, request.turnId) ?? { record: request.next, admissions: [] } };
  },
  admitDispatch: async (request: AdmitDispatchRequest<string>, launch: () => void) => {
    await roundTrip();
    const refusal = refusalOf(tables, snapshot(tables, request.turnId), request);
    if (refusal !== null) return refusal;
    await roundTrip();
    recordAdmission(tables, request);
    launch();
    return { admitted: true as const };
  },
});
const readThenUpdate = mapHarness({ writes: readThenWrite });

// (4) A lock held in this process around (3): it serializes one worker's writes, not two workers'.
const inProcessLock = mapHarness({
  writes: (tables) => {
    const unfenced = readThenWrite(tables);
    let tail: Promise<unknown> = Promise.resolve();
    const locked =
      <Args extends unknown[], Value>(method: (...args: Args) => Promise<Value>) =>
      (...args: Args): Promise<Value> => {
        const run = tail.then(() => method(...args));
        tail = run.catch(() => undefined);
        return run;
      };
    return { compareAndSwap: locked(unfenced.compareAndSwap), admitDispatch: locked(unfenced.admitDispatch) };
  },
});

// (5) An admission table without an admittedAt column: the lease cannot be judged, so every admission reads as expired.
const admittedAtLost = mapHarness({
  writes: (tables) => ({
    compareAndSwap: atomicCompareAndSwap(tables),
    admitDispatch: atomicAdmitDispatch(tables, ({ effectId, claim }) => ({ effectId, claim }) as EffectAdmission),
  }),
});

// (6) An admission dated by the store's own clock (a column defaulting to now()) instead of the request's admittedAt.
const admittedAtReplaced = mapHarness({
  writes: (tables) => ({
    compareAndSwap: atomicCompareAndSwap(tables),
    admitDispatch: atomicAdmitDispatch(tables, ({ effectId, claim }) => ({ effectId, claim, admittedAt: new Date().toISOString() })),
  }),
});

// (7) A read that assumes the row exists: a missing turn throws a TypeError instead of answering null.
const readThrowsOnMissing = mapHarness({
  read: (tables) => async (turnId) => {
    await roundTrip();
    const record = tables.records.get(turnId) as TurnRecord<string>;
    return structuredClone({ record: { ...record, effects: [...record.effects] }, admissions: tables.admissions.get(turnId) ?? [] });
  },
});

// (8) An admission that assumes the turn and the effect exist: the missing ones throw instead of refusing.
const admitThrowsOnMissing = mapHarness({
  writes: (tables) => {
    const admit = atomicAdmitDispatch(tables);
    return {
      compareAndSwap: atomicCompareAndSwap(tables),
      admitDispatch: async (request, launch) => {
        const record = tables.records.get(request.turnId) as TurnRecord<string>;
        if (!record.effects.some((effect) => effect.effectId === request.effectId)) throw new TypeError(`no effect ${request.effectId}`);
        return admit(request, launch);
      },
    };
  },
});

// (9) A store written before effects could be declared: it refuses a record whose effect list grew.
const fixedEffectList = mapHarness({
  writes: (tables) => {
    const commit = atomicCompareAndSwap(tables);
    return {
      compareAndSwap: async (request) => {
        const current = tables.records.get(request.turnId);
        if (current !== undefined && current.effects.length !== request.next.effects.length) throw new TypeError('the effect list changed');
        return commit(request);
      },
      admitDispatch: atomicAdmitDispatch(tables),
    };
  },
});

// (10) Issue 27: an admission that refuses only a cancelled turn, written before turns could be interrupted.
const admitsInterrupted = mapHarness({
  writes: (tables) => ({
    compareAndSwap: atomicCompareAndSwap(tables),
    admitDispatch: async (request, launch) => {
      await roundTrip();
      const turn = snapshot(tables, request.turnId);
      const seen = turn?.record.status === 'interrupted' ? { ...turn, record: { ...turn.record, status: 'running' as const } } : turn;
      const refusal = refusalOf(tables, seen, request);
      if (refusal !== null) return refusal;
      recordAdmission(tables, request);
      launch();
      return { admitted: true };
    },
  }),
});

// (11) Issue 27: a store that keeps only the columns it knew, dropping the record's run and its lease.
const runDropped = mapHarness({
  writes: (tables) => {
    const commit = atomicCompareAndSwap(tables);
    return {
      compareAndSwap: async (request) => {
        const { run: _run, ...next } = request.next;
        return commit({ ...request, next });
      },
      admitDispatch: atomicAdmitDispatch(tables),
    };
  },
});

// (12) Issue 27: a listing that forgot its status filter: ended turns come back to the sweeper.
const listsEndedTurns = mapHarness({ list: (tables) => listTurns(tables, (record, afterTurnId) => record.turnId > afterTurnId) });

// (13) Issue 27: a listing whose cursor is inclusive: every page starts with the last turn of the one before.
const inclusiveCursor = mapHarness({
  list: (tables) => listTurns(tables, (record, afterTurnId) => record.status === 'running' && record.turnId >= afterTurnId),
});

const NAMES = turnRecoveryChecks().map((check) => check.name);
const named = (index: number): string => {
  const name = NAMES[index];
  if (name === undefined) throw new Error(`no check ${index}`);
  return name;
};
const [
  HAPPY_PATH,
  REFUSED_AFTER_CANCEL,
  ORPHAN_LEASE,
  MISSING_TURN,
  TWO_WORKERS,
  DISPATCH_VS_CANCEL,
  COMPLETION_VS_CANCEL,
  DECLARED,
  DECLARE_VS_CANCEL,
  DECLARE_TWICE,
  RUN_LEASE,
  RENEW_VS_INTERRUPT,
  TWO_INTERRUPTERS,
  DISPATCH_VS_INTERRUPT,
  FINISHED,
  FINISH_VS_INTERRUPT,
  LISTING,
] = [
  named(0),
  named(1),
  named(3),
  named(4),
  named(5),
  named(6),
  named(7),
  named(8),
  named(9),
  named(10),
  named(11),
  named(12),
  named(13),
  named(14),
  named(15),
  named(16),
  named(17),
];

// The race checks: an unfenced store fails each of them.
const EVERY_RACE = [
  TWO_WORKERS,
  DISPATCH_VS_CANCEL,
  COMPLETION_VS_CANCEL,
  DECLARE_VS_CANCEL,
  DECLARE_TWICE,
  RENEW_VS_INTERRUPT,
  TWO_INTERRUPTERS,
  DISPATCH_VS_INTERRUPT,
  FINISH_VS_INTERRUPT,
];

async function verdicts(createHarness: () => TurnRecoveryHarness): Promise<Record<string, readonly string[]>> {
  const found: Record<string, readonly string[]> = {};
  for (const check of turnRecoveryChecks({ numRuns: runs(200) })) found[check.name] = await check.run(createHarness());
  return found;
}

describe('the turn recovery conformance suite catches broken adapters (issues 7, 12, 26 and 27)', () => {
  it('passes a correct host store over plain maps, the base of every broken variant below', async () => {
    expect(await verdicts(mapHarness())).toEqual(Object.fromEntries(NAMES.map((name) => [name, []])));
  });

  it.each([
    // Its launch comes before any check: a second dispatch, a dispatch after the cancellation, a racing one all launch.
    // It even launches for a missing turn or effect, and for the woken owner of an interrupted turn.
    [
      'admission recorded after launching',
      launchBeforeAdmission,
      [HAPPY_PATH, REFUSED_AFTER_CANCEL, MISSING_TURN, TWO_WORKERS, DISPATCH_VS_CANCEL, RUN_LEASE, DISPATCH_VS_INTERRUPT, FINISHED],
      // A declared effect's launch after the cancellation needs its claim to land first: some interleavings only.
      [DECLARE_VS_CANCEL],
    ],
    // Only an admission landing between the early abort and the commit shows it: a race.
    ['cancellation that calls the abort hook before committing', abortBeforeCommit, [DISPATCH_VS_CANCEL], [DECLARE_VS_CANCEL]],
    // Unfenced writes: two claims both get claim 1 and both launch; a completion and a cancellation overwrite each other;
    // a declaration reopens a cancelled turn, and two declarations both answer declared.
    // Issue 27: a renewal and an interruption both win, two interrupters both answer interrupted, a finish and an
    // interruption both end the turn, and an admission lands after the interruption committed.
    ['a read followed by an unconditional update', readThenUpdate, EVERY_RACE],
    ['an in-process lock instead of a store fence', inProcessLock, EVERY_RACE],
    // Issue 12: only the orphan check judges an admission's age.
    ['an admission stored without its admittedAt', admittedAtLost, [ORPHAN_LEASE]],
    ['an admission dated by the store instead of the request', admittedAtReplaced, [ORPHAN_LEASE]],
    // Issue 12: a missing turn or effect must be an answer, not a throw.
    ['a read that throws on a missing turn', readThrowsOnMissing, [MISSING_TURN]],
    ['an admission that throws on a missing turn or effect', admitThrowsOnMissing, [MISSING_TURN]],
    // Issue 26: effects a run discovers join the turn record; a store that pins its effect list refuses every declaration.
    ['a store that refuses a grown effect list', fixedEffectList, [DECLARED, DECLARE_VS_CANCEL, DECLARE_TWICE]],
    // Issue 27: the woken owner's admission launches, also one racing the interruption; without the run every
    // renewal and finish is run-lease-lost; a listing must filter and page exactly.
    ['an admission that lets an interrupted turn through', admitsInterrupted, [RUN_LEASE, DISPATCH_VS_INTERRUPT]],
    [
      'a store that drops the run lease from the record',
      runDropped,
      [RUN_LEASE, RENEW_VS_INTERRUPT, FINISHED, FINISH_VS_INTERRUPT, LISTING],
    ],
    ['a listing of every turn, ended ones too', listsEndedTurns, [LISTING]],
    ['a listing whose cursor is inclusive', inclusiveCursor, [LISTING]],
  ] as const)(
    'fails %s on the checks that must catch it, passes the others',
    async (_, createHarness, failing, mayCatch?: readonly string[]) => {
      const found = await verdicts(createHarness);
      for (const name of failing) expect(found[name], name).not.toEqual([]);
      // A race that catches the break only in some interleavings may pass or fail; every other check must pass.
      const judged: readonly string[] = [...failing, ...(mayCatch ?? [])];
      const others = Object.entries(found).filter(([name]) => !judged.includes(name));
      expect(others).toEqual(others.map(([name]) => [name, []]));
    },
  );
});
