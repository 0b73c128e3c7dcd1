/**
 * The fake database every testkit store is built on: named tables that survive
 * a restart, per-key fences that serialize transactions, a logical clock and an
 * append-only history of what committed, round-trip counters, and fault
 * injection per operation. It knows no turn or card: a store module defines its
 * operations on top of `transact`, so later stores (interactions' card records)
 * share the same fences, faults and restarts without forking this one.
 * Deterministic: no clock, no Math.random; random fault plans come from the seed.
 */
import { readFields } from '@papercusp/chat-protocol-core/internal';

/** Faults a test can inject into one call of an operation. */
export type FakeFaultKind =
  /** The call fails before anything commits. */
  | 'fail-before-commit'
  /**
   * The call commits, then its acknowledgement is lost: the caller sees a
   * throw. A transaction's side effect after the commit (`beforeRelease`:
   * `admitDispatch`'s launch) does not run; an unfenced call's body does.
   */
  | 'lose-acknowledgement'
  /**
   * The call commits, runs the side effect its commit releases (a
   * transaction's `beforeRelease`: `admitDispatch`'s launch), and then its
   * acknowledgement is lost: admitted, launched, and the caller sees a throw.
   * On an operation without such a side effect it is `lose-acknowledgement`.
   */
  | 'lose-acknowledgement-after-launch'
  /** The call waits `turns` microtask turns before it asks for its fence. */
  | 'delay';

/** The kinds, in a stable order. */
export const FAKE_FAULT_KINDS: readonly FakeFaultKind[] = /* @__PURE__ */ Object.freeze([
  'fail-before-commit',
  'lose-acknowledgement',
  'lose-acknowledgement-after-launch',
  'delay',
]);

/**
 * The kinds a random plan draws from when it names none: the first three
 * kinds, as before `lose-acknowledgement-after-launch` existed, so a seed
 * replays the plan it always did. Name `kinds` (`FAKE_FAULT_KINDS`) to draw from all.
 */
export const FAKE_RANDOM_FAULT_KINDS: readonly FakeFaultKind[] = /* @__PURE__ */ Object.freeze([
  'fail-before-commit',
  'lose-acknowledgement',
  'delay',
]);

/**
 * What a call's request names, for aiming a fault: the turn store's
 * operations name their turn (and `admitDispatch` its effect; all but `read`
 * their conversation), the interaction store's their conversation and card.
 */
export interface FakeCallTarget {
  readonly conversationId?: string;
  readonly turnId?: string;
  readonly effectId?: string;
  readonly correlationId?: string;
}

/** One call as a fault rule sees it. */
export interface FakeCall {
  readonly operation: string;
  /** The fence key (a turn id for the turn store). */
  readonly key: string;
  /** 1 for the first call of this operation since the database was created. */
  readonly index: number;
  /** What the call's request names (`{}` for a call that names nothing). */
  readonly target: FakeCallTarget;
}

/**
 * A fault to inject: calls of `operation` that match `target` and that `when`
 * accepts are counted from the moment the rule is injected; the
 * `occurrence`-th of them and the `times - 1` matching calls after it get
 * `kind`. So "lose the acknowledgement of the second read of turn_1" is
 * `{ operation: 'read', target: { turnId: 'turn_1' }, occurrence: 2, kind: 'lose-acknowledgement' }`,
 * whatever other turns' calls come between.
 */
export interface FakeFaultRule {
  readonly operation: string;
  readonly kind: FakeFaultKind;
  /** How many matching calls it hits (default 1). */
  readonly times?: number;
  /** Microtask turns to wait, for `delay` (default 1). */
  readonly turns?: number;
  /** Only calls whose request names every field given here, with these values (default: every call). */
  readonly target?: FakeCallTarget;
  /** Which matching call, counted from 1 since the rule was injected, is the first one hit (default 1). */
  readonly occurrence?: number;
  readonly when?: (call: FakeCall) => boolean;
}

/** A seeded random fault plan: each call of the listed operations gets a fault with probability `rate`. */
export interface FakeRandomFaults {
  readonly rate: number;
  readonly operations: readonly string[];
  /** The kinds to draw from (default `FAKE_RANDOM_FAULT_KINDS`). */
  readonly kinds?: readonly FakeFaultKind[];
}

/** One entry of the history: what committed (or was observed) at logical time `at`. */
export interface FakeHistoryEntry {
  readonly at: number;
  readonly type: string;
  readonly key: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

/** The error a faulted or restarted call throws. `fault` says which. */
export class FakeDatabaseError extends Error {
  /** The fault kind that threw (`delay` never does), or `restarted` (the connection died with a restart). */
  readonly fault: 'fail-before-commit' | 'lose-acknowledgement' | 'lose-acknowledgement-after-launch' | 'restarted';

  constructor(fault: FakeDatabaseError['fault'], operation: string) {
    super(`${operation}: ${fault}`);
    this.name = 'FakeDatabaseError';
    this.fault = fault;
  }
}

/** What a transaction body can do while it holds its fence. */
export interface FakeTransaction {
  /** A point inside the fence where the test's `pause` hook may let other work run. Throws if a restart happened meanwhile. */
  pause(phase: string): Promise<void>;
  /** Appends to the history at the next logical time. */
  record(type: string, detail?: Readonly<Record<string, unknown>>): void;
}

/** Options of {@link createFakeDatabase}. */
export interface FakeDatabaseOptions {
  /** Seed of the random fault plans (default 1). */
  readonly seed?: number;
  /**
   * Called at every pause point inside a fence (after the fence is taken, and
   * between a transaction's check and its write). Race tests return a promise
   * their scheduler resolves; by default nothing waits.
   */
  readonly pause?: (point: { readonly operation: string; readonly key: string; readonly phase: string }) => Promise<void> | void;
}

/** A transaction's body and what runs after its commit while the fence is still held (only if acknowledged). */
export interface FakeTransactionSpec<Value> {
  readonly operation: string;
  readonly key: string;
  /** What the request names, for faults aimed at it (default `{}`). */
  readonly target?: FakeCallTarget;
  readonly body: (transaction: FakeTransaction) => Promise<Value> | Value;
  readonly beforeRelease?: (value: Value) => void;
}

/** The shared fake database. */
export interface FakeDatabase {
  readonly seed: number;
  /** The next number of the seeded generator, in [0, 1). */
  random(): number;
  /** A table by name: a Map whose rows survive restarts. Store modules own their tables' row shapes. */
  table<Row>(name: string): Map<string, Row>;
  /** Runs one transaction under the fence of `key`, with the faults injected for its operation. */
  transact<Value>(spec: FakeTransactionSpec<Value>): Promise<Value>;
  /** Runs a call that takes no fence (an authorization check, a hook) with its faults; `body` runs unless it fails before. `target`: what the request names. */
  call<Value>(operation: string, key: string, body: () => Promise<Value> | Value, target?: FakeCallTarget): Promise<Value>;
  /** Queues a fault. */
  inject(rule: FakeFaultRule): void;
  /** Turns on a seeded random fault plan (replacing the previous one). */
  injectRandomFaults(plan: FakeRandomFaults | null): void;
  /** Drops every queued fault and the random plan. */
  clearFaults(): void;
  /** Restart: every fence and every connection made before is dropped; committed rows stay. */
  restart(): void;
  /** Calls `listener` right after each restart, until the returned function is called (a live connection's way to notice it died); a throw from it is swallowed. */
  onRestart(listener: () => void): () => void;
  /** Increases with every restart; connections remember the epoch they were made in. */
  readonly epoch: number;
  /** Throws `FakeDatabaseError('restarted')` when `epoch` is not the current one. */
  assertEpoch(epoch: number, operation: string): void;
  /** What committed, in order. */
  readonly history: readonly FakeHistoryEntry[];
  /** Appends to the history outside a transaction (an observation, such as a launch). */
  record(type: string, key: string, detail?: Readonly<Record<string, unknown>>): void;
  /** Calls per operation since the last {@link FakeDatabase.resetCounts}: the store round trips. */
  counts(): Readonly<Record<string, number>>;
  resetCounts(): void;
}

// mulberry32: a small, well-mixed 32-bit generator; enough for fault plans.
function seededGenerator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

async function yieldTurns(turns: number): Promise<void> {
  for (let turn = 0; turn < turns; turn += 1) await Promise.resolve();
}

interface QueuedFault {
  rule: FakeFaultRule;
  remaining: number;
  /** Matching calls still to let through before the first hit. */
  skip: number;
}

// Whether the call's request names every field the rule's target gives, with the same value.
function isTargeted(call: FakeCall, target: FakeCallTarget | undefined): boolean {
  if (target === undefined) return true;
  const fields = ['conversationId', 'turnId', 'effectId', 'correlationId'] as const;
  return fields.every((field) => target[field] === undefined || call.target[field] === target[field]);
}

// The entries of a list, each read once, when every one passes `accept`; undefined otherwise.
function readList<Entry>(value: unknown, accept: (entry: unknown) => entry is Entry): Entry[] | undefined {
  try {
    if (!Array.isArray(value)) return undefined;
    const entries: unknown[] = Array.from(value as unknown[]);
    return entries.every(accept) ? entries : undefined;
  } catch {
    return undefined;
  }
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isFaultKind = (value: unknown): value is FakeFaultKind => FAKE_FAULT_KINDS.includes(value as FakeFaultKind);
const isOptionalNumber = (value: unknown): boolean => value === undefined || typeof value === 'number';

// A rule read once into a copy the fault matcher can read later without a getter or a trap running.
function readFaultRule(given: FakeFaultRule): FakeFaultRule {
  const unusable = new TypeError('FakeDatabase.inject: expected { operation, kind, times?, turns?, target?, occurrence?, when? }');
  const rule = readFields(given, ['operation', 'kind', 'times', 'turns', 'target', 'occurrence', 'when']);
  if (rule === undefined || typeof rule.operation !== 'string' || !isFaultKind(rule.kind)) throw unusable;
  if (![rule.times, rule.turns, rule.occurrence].every(isOptionalNumber) || (rule.when !== undefined && typeof rule.when !== 'function'))
    throw unusable;
  if (rule.target === undefined) return rule;
  const target = readFields(rule.target, ['conversationId', 'turnId', 'effectId', 'correlationId']);
  if (target === undefined) throw unusable;
  return { ...rule, target };
}

// A random plan read once, its lists copied.
function readRandomFaults(given: FakeRandomFaults): FakeRandomFaults {
  const unusable = new TypeError('FakeDatabase.injectRandomFaults: expected { rate, operations, kinds? } or null');
  const plan = readFields(given, ['rate', 'operations', 'kinds']);
  if (plan === undefined || typeof plan.rate !== 'number') throw unusable;
  const operations = readList(plan.operations, isText);
  const kinds = plan.kinds === undefined ? undefined : readList(plan.kinds, isFaultKind);
  if (operations === undefined || (plan.kinds !== undefined && kinds === undefined)) throw unusable;
  return kinds === undefined ? { rate: plan.rate, operations } : { rate: plan.rate, operations, kinds };
}

/**
 * Creates an empty fake database.
 *
 * Guarantees: transactions on one key run one at a time, in the order they
 * asked for the fence; a transaction's writes happen inside its body, so a
 * fault before the body commits nothing, `lose-acknowledgement` throws after
 * the body committed and skips `beforeRelease`, and
 * `lose-acknowledgement-after-launch` throws after `beforeRelease` ran. A
 * rule's `target` and `occurrence` count only the calls it matches, from its
 * injection on. `restart()` makes every call
 * still waiting or paused throw `restarted` without committing, and new calls
 * take fresh fences. The same seed, faults and call order give the same history.
 * Reads `options` once; throws `TypeError` (its only throw) when they cannot be
 * read (a throwing getter, a Proxy), `seed` is not a number or `pause` is not a
 * function. `inject` and `injectRandomFaults` read a rule or plan once and
 * throw `TypeError` for one they cannot use, so a hostile rule cannot make a
 * later call throw.
 */
export function createFakeDatabase(options: FakeDatabaseOptions = {}): FakeDatabase {
  const read = readFields(options, ['seed', 'pause']);
  if (read === undefined) throw new TypeError('createFakeDatabase: the options cannot be read; expected { seed?, pause? }');
  const { seed = 1, pause: pauseHook } = read;
  if (typeof seed !== 'number') throw new TypeError('createFakeDatabase: seed must be a number');
  if (pauseHook !== undefined && typeof pauseHook !== 'function') throw new TypeError('createFakeDatabase: pause must be a function');
  const random = seededGenerator(seed);
  const tables = new Map<string, Map<string, unknown>>();
  const history: FakeHistoryEntry[] = [];
  const calls = new Map<string, number>();
  const totals = new Map<string, number>();
  let queued: QueuedFault[] = [];
  let randomPlan: FakeRandomFaults | null = null;
  let fences = new Map<string, Promise<void>>();
  let epoch = 0;
  let clock = 0;
  let restartListeners: ReadonlySet<() => void> = new Set();

  const append = (type: string, key: string, detail: Readonly<Record<string, unknown>>): void => {
    clock += 1;
    history.push({ at: clock, type, key, detail });
  };

  const assertEpoch = (expected: number, operation: string): void => {
    if (expected !== epoch) throw new FakeDatabaseError('restarted', operation);
  };

  // Which fault, if any, this call gets: queued rules first, then the random plan.
  const takeFault = (call: FakeCall): { kind: FakeFaultKind; turns: number } | null => {
    for (const entry of queued) {
      if (
        entry.remaining > 0 &&
        entry.rule.operation === call.operation &&
        isTargeted(call, entry.rule.target) &&
        (entry.rule.when?.(call) ?? true)
      ) {
        if (entry.skip > 0) {
          entry.skip -= 1;
          continue;
        }
        entry.remaining -= 1;
        queued = queued.filter((candidate) => candidate.remaining > 0);
        return { kind: entry.rule.kind, turns: entry.rule.turns ?? 1 };
      }
    }
    if (randomPlan !== null && randomPlan.operations.includes(call.operation) && random() < randomPlan.rate) {
      const kinds = randomPlan.kinds ?? FAKE_RANDOM_FAULT_KINDS;
      const kind = kinds[Math.floor(random() * kinds.length)];
      if (kind !== undefined) return { kind, turns: 1 + Math.floor(random() * 3) };
    }
    return null;
  };

  const begin = (operation: string, key: string, target: FakeCallTarget = {}): FakeCall => {
    calls.set(operation, (calls.get(operation) ?? 0) + 1);
    const index = (totals.get(operation) ?? 0) + 1;
    totals.set(operation, index);
    return { operation, key, index, target };
  };

  // The acknowledgement faults, thrown after the commit: before or after the side effect it releases.
  const loseAcknowledgement = (fault: FakeFaultKind | undefined, operation: string, after: 'commit' | 'side-effect'): void => {
    if (fault === 'lose-acknowledgement' && after === 'commit') throw new FakeDatabaseError('lose-acknowledgement', operation);
    if (fault === 'lose-acknowledgement-after-launch' && after === 'side-effect')
      throw new FakeDatabaseError('lose-acknowledgement-after-launch', operation);
  };

  const acquire = async (key: string, operation: string, startedIn: number): Promise<() => void> => {
    const previous = fences.get(key) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => held);
    fences.set(key, tail);
    const fencesOfCall = fences;
    const releaseFence = (): void => {
      release();
      if (fencesOfCall.get(key) === tail) fencesOfCall.delete(key);
    };
    await previous;
    if (startedIn !== epoch) {
      // Restarted while waiting: hand the fence on so the rest of the old queue drains too.
      releaseFence();
      throw new FakeDatabaseError('restarted', operation);
    }
    return releaseFence;
  };

  const database: FakeDatabase = {
    seed,
    random,
    table<Row>(name: string): Map<string, Row> {
      let table = tables.get(name);
      if (table === undefined) {
        table = new Map<string, unknown>();
        tables.set(name, table);
      }
      return table as Map<string, Row>;
    },
    async transact<Value>(spec: FakeTransactionSpec<Value>): Promise<Value> {
      const { operation, key } = spec;
      const startedIn = epoch;
      const fault = takeFault(begin(operation, key, spec.target));
      if (fault?.kind === 'delay') await yieldTurns(fault.turns);
      assertEpoch(startedIn, operation);
      if (fault?.kind === 'fail-before-commit') throw new FakeDatabaseError('fail-before-commit', operation);
      let release: (() => void) | undefined;
      try {
        release = await acquire(key, operation, startedIn);
        const transaction: FakeTransaction = {
          pause: async (phase) => {
            await pauseHook?.({ operation, key, phase });
            assertEpoch(startedIn, operation);
          },
          record: (type, detail = {}) => append(type, key, detail),
        };
        await transaction.pause('fenced');
        const value = await spec.body(transaction);
        loseAcknowledgement(fault?.kind, operation, 'commit');
        spec.beforeRelease?.(value);
        loseAcknowledgement(fault?.kind, operation, 'side-effect');
        return value;
      } finally {
        release?.();
      }
    },
    async call<Value>(operation: string, key: string, body: () => Promise<Value> | Value, target: FakeCallTarget = {}): Promise<Value> {
      const startedIn = epoch;
      const fault = takeFault(begin(operation, key, target));
      if (fault?.kind === 'delay') await yieldTurns(fault.turns);
      assertEpoch(startedIn, operation);
      if (fault?.kind === 'fail-before-commit') throw new FakeDatabaseError('fail-before-commit', operation);
      const value = await body();
      // An unfenced call's body is its side effect: both acknowledgement faults come after it.
      loseAcknowledgement(fault?.kind, operation, 'commit');
      loseAcknowledgement(fault?.kind, operation, 'side-effect');
      return value;
    },
    inject(given: FakeFaultRule): void {
      const rule = readFaultRule(given);
      queued = [...queued, { rule, remaining: rule.times ?? 1, skip: Math.max(0, Math.floor(rule.occurrence ?? 1) - 1) }];
    },
    injectRandomFaults(plan: FakeRandomFaults | null): void {
      randomPlan = plan === null ? null : readRandomFaults(plan);
    },
    clearFaults(): void {
      queued = [];
      randomPlan = null;
    },
    restart(): void {
      epoch += 1;
      fences = new Map();
      append('restart', '', { epoch });
      for (const listener of restartListeners) {
        try {
          listener();
        } catch {
          // A listener's throw is its own; the restart has happened.
        }
      }
    },
    onRestart(listener: () => void): () => void {
      restartListeners = new Set([...restartListeners, listener]);
      return () => {
        restartListeners = new Set([...restartListeners].filter((candidate) => candidate !== listener));
      };
    },
    get epoch() {
      return epoch;
    },
    assertEpoch,
    history,
    record(type: string, key: string, detail: Readonly<Record<string, unknown>> = {}): void {
      append(type, key, detail);
    },
    counts(): Readonly<Record<string, number>> {
      return Object.fromEntries(calls);
    },
    resetCounts(): void {
      calls.clear();
    },
  };
  return database;
}

/** What a store module uses of a database: its tables and methods, read once when the store connects. */
export interface FakeDatabaseConnection {
  /** The epoch the connection was made in; a restart ends it. */
  readonly epoch: number;
  /** The tables the store asked for, by name. */
  readonly tables: ReadonlyMap<string, Map<string, unknown>>;
  transact<Value>(spec: FakeTransactionSpec<Value>): Promise<Value>;
  call<Value>(operation: string, key: string, body: () => Promise<Value> | Value, target?: FakeCallTarget): Promise<Value>;
  record(type: string, key: string, detail?: Readonly<Record<string, unknown>>): void;
  /** Throws `restarted` once the database restarted after this connection was made. */
  alive(operation: string): void;
  /** The database's {@link FakeDatabase.onRestart}. */
  onRestart(listener: () => void): () => void;
}

const DATABASE_MEMBERS = ['epoch', 'table', 'transact', 'call', 'record', 'assertEpoch', 'onRestart'] as const;

/**
 * Connects a store module to `database`: reads what the store uses once and
 * calls it with `database` as receiver from then on, so a getter cannot answer
 * differently later. Throws `TypeError` (naming `factory`) when `database`
 * cannot be read, is not shaped like a `FakeDatabase`, or cannot give a table.
 */
export function connectFakeDatabase(database: FakeDatabase, factory: string, tableNames: readonly string[]): FakeDatabaseConnection {
  const unusable = (): TypeError => new TypeError(`${factory}: expected a FakeDatabase from createFakeDatabase`);
  const read = readFields(database, DATABASE_MEMBERS);
  if (read === undefined) throw unusable();
  const { epoch, table, transact, call, record, assertEpoch, onRestart } = read;
  if (typeof epoch !== 'number' || [table, transact, call, record, assertEpoch, onRestart].some((member) => typeof member !== 'function'))
    throw unusable();
  const tables = new Map<string, Map<string, unknown>>();
  try {
    for (const name of tableNames) {
      const rows: unknown = table.call(database, name);
      if (!(rows instanceof Map)) throw unusable();
      tables.set(name, rows as Map<string, unknown>);
    }
    // bind keeps each method's generic signature; it reads the function's name and length, so it is inside the try.
    const checkEpoch = assertEpoch.bind(database);
    return {
      epoch,
      tables,
      transact: transact.bind(database),
      call: call.bind(database),
      record: record.bind(database),
      alive: (operation) => checkEpoch(epoch, operation),
      onRestart: onRestart.bind(database),
    };
  } catch {
    throw unusable();
  }
}
