/**
 * The fake turn store: recovery's `TurnStore`, replay window, authorization and
 * abort hook over a `FakeDatabase`, with real semantics — revision
 * compare-and-swap and `admitDispatch` under one per-turn fence, per-effect
 * admission records, an append-only event log per turn with a retention lower
 * bound. Each `createFakeTurnStore` call is one worker's connection; a restart
 * kills it. It also guards the protocol: a write that would overwrite a stored
 * result, reopen a cancelled or interrupted turn, change the run that owns a
 * turn, move its lease back or renew it once ended, lower a claim, drop or
 * reorder an effect, or declare one in an ended turn is refused and recorded as a
 * `violation` in the history. Its operations read every request once and answer
 * one they cannot read as naming no turn; only a write they cannot make rejects.
 */
import { LIGHTWEIGHT_CHAT_CAPABILITIES, type ChatCapabilities, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { readFields } from '@papercusp/chat-protocol-core/internal';
import {
  admissionRefusal,
  readAdmitDispatchRequest,
  readListRunningTurnsRequest,
  type AbortRequest,
  type AdmitDispatchRequest,
  type AdmitDispatchResult,
  type AuthorizationRequest,
  type CompareAndSwapRequest,
  type CompareAndSwapResult,
  type EffectAdmission,
  type ListRunningTurnsRequest,
  type ReplayWindow,
  type ReplayWindowRequest,
  type StoredTurn,
  type TurnRecord,
  type TurnRecoveryAdapter,
  type TurnStore,
} from '@papercusp/chat-protocol-recovery';
import { connectFakeDatabase, type FakeDatabase, type FakeTransaction } from './fake-database.js';
import { EMPTY_REPLAY_WINDOW, readReplayWindowRequest } from './replay-window-request.js';

/** Every capability: what the fake store supports. */
const FULL_CAPABILITIES: ChatCapabilities = /* @__PURE__ */ Object.freeze({
  ...LIGHTWEIGHT_CHAT_CAPABILITIES,
  persistedHistory: true,
  persistedDecisions: true,
  completedToolCheckpoints: true,
  interruptedTurnRecovery: true,
});

/** Table names the turn store owns in the database. */
export const FAKE_TURN_TABLES = /* @__PURE__ */ Object.freeze({ turns: 'turns', grants: 'grants', logs: 'logs' } as const);

interface TurnRow {
  readonly record: TurnRecord<unknown>;
  readonly admissions: readonly EffectAdmission[];
}

interface LogRow {
  readonly lowerBound: number;
  readonly frames: readonly ChatEventEnvelope[];
}

/** Options of {@link FakeTurnStore.adapter}. */
export interface FakeTurnAdapterOptions {
  /** The declaration (default: every capability). */
  readonly capabilities?: ChatCapabilities;
  /** The host's abort behaviour, run behind the `abort` operation's faults. Without it the adapter has no abort hook. */
  readonly onAbort?: (request: AbortRequest) => void | Promise<void>;
  /** Leave out `admitDispatch`, to test a store without the admission seam. */
  readonly withoutAdmissionSeam?: boolean;
}

/**
 * One worker's connection to the fake turn store. Operations (for faults and
 * counts), with what their requests name for a fault's `target`: `read`
 * (turn), `listRunningTurns` (its key: `afterTurnId`, or `''`), `compareAndSwap` (turn, conversation), `admitDispatch` (turn,
 * effect, conversation; its launch is the side effect
 * `lose-acknowledgement-after-launch` lets run), `replayWindow`, `authorize`
 * and `abort` (turn, conversation).
 */
export interface FakeTurnStore<Result> extends Required<TurnStore<Result, string>> {
  /** The retained frames after `after`, with the lower bound and latest seq. */
  replayWindow(request: ReplayWindowRequest): Promise<ReplayWindow>;
  /** Whether `caller` is currently granted the conversation. */
  authorize(request: AuthorizationRequest<string>): Promise<boolean>;
  /** Test setup, no round trip: grants a caller a conversation. */
  grant(conversationId: string, caller: string): void;
  /** Test setup, no round trip: revokes a grant (a later admission is `forbidden`). */
  revoke(conversationId: string, caller: string): void;
  /** The host writing its log: appends frames to their turns' logs (append-only). */
  appendFrames(frames: readonly ChatEventEnvelope[]): void;
  /** Retention: drops a turn's frames up to `lowerBound`; the bound never goes down. */
  retainAfter(turnId: string, lowerBound: number): void;
  /** What is committed for a turn, without a round trip, fault or fence (for assertions). */
  peek(turnId: string): StoredTurn<Result> | null;
  /** A `TurnRecoveryAdapter` over this connection. */
  adapter(options?: FakeTurnAdapterOptions): TurnRecoveryAdapter<Result, string>;
}

function clone<Value>(value: Value): Value {
  return structuredClone(value);
}

/** A grant's key in the grants table; undefined for ids JSON cannot write (a BigInt, a cycle, a Proxy), which hold no grant. Not exported from the package. */
export function grantKey(conversationId: unknown, caller: unknown): string | undefined {
  try {
    return JSON.stringify([conversationId, caller]);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Whether a cloned value (plain data: no getter, no Proxy) has the fields the store reads of a turn record.
function isTurnRecordShape(value: unknown): value is TurnRecord<unknown> {
  if (!isRecord(value)) return false;
  const { turnId, conversationId, revision, status, effects, run } = value;
  return (
    (run === undefined || (isRecord(run) && typeof run['runId'] === 'string' && typeof run['leaseExpiresAt'] === 'string')) &&
    typeof turnId === 'string' &&
    typeof conversationId === 'string' &&
    typeof revision === 'number' &&
    typeof status === 'string' &&
    Array.isArray(effects) &&
    effects.every(
      (effect) =>
        isRecord(effect) &&
        typeof effect['effectId'] === 'string' &&
        typeof effect['claim'] === 'number' &&
        typeof effect['status'] === 'string',
    )
  );
}

// Why a write breaks the protocol, or null. A real store would accept it; the
// fake one refuses so a broken component shows up in the history.
function protocolViolation(current: TurnRow | null, turnId: string, expectedRevision: number, next: unknown): string | null {
  if (!isTurnRecordShape(next)) return 'the record cannot be read as a turn record';
  if (next.turnId !== turnId) return 'the record names another turn';
  if (next.revision !== expectedRevision + 1) return 'the revision must go up by one';
  if (current === null) return null;
  const previous = current.record;
  if (next.conversationId !== previous.conversationId) return 'the conversation changed';
  if (previous.status !== 'running' && next.status !== previous.status) return `the ${previous.status} turn was reopened`;
  // The run that owns a turn never changes (§6 rule 12); its lease only moves forward, and only while the turn runs.
  if (previous.run?.runId !== next.run?.runId) return 'the run owning the turn changed';
  const before = previous.run?.leaseExpiresAt;
  const after = next.run?.leaseExpiresAt;
  if (before !== after) {
    if (previous.status !== 'running') return `the run lease of the ${previous.status} turn was renewed`;
    if (before !== undefined && after !== undefined && Date.parse(after) < Date.parse(before)) return 'the run lease went back';
  }
  if (next.effects.length < previous.effects.length) return 'the effect list changed';
  for (let index = 0; index < previous.effects.length; index += 1) {
    const before = previous.effects[index];
    const after = next.effects[index];
    if (before === undefined || after === undefined || before.effectId !== after.effectId) return 'the effect list changed';
    if (after.claim < before.claim) return `the claim of ${after.effectId} went down`;
    if (before.status === 'completed' && !sameJson(after, before)) return `the stored result of ${after.effectId} was overwritten`;
  }
  // Effects a run declared (§6 rule 1) follow the others: new ids, open and unclaimed, and only while the turn runs.
  const ids = new Set(previous.effects.map((effect) => effect.effectId));
  for (const declared of next.effects.slice(previous.effects.length)) {
    if (ids.has(declared.effectId) || declared.status !== 'open' || declared.claim !== 0) return 'the effect list changed';
    if (previous.status !== 'running') return `${declared.effectId} was declared in a ${previous.status} turn`;
    ids.add(declared.effectId);
  }
  return null;
}

// Whether two cloned values write the same JSON; a value JSON cannot write (a BigInt) is never the same.
function sameJson(left: unknown, right: unknown): boolean {
  try {
    return JSON.stringify(left) === JSON.stringify(right);
  } catch {
    return false;
  }
}

// A copy of a request's `next`, or undefined when it cannot be cloned (a getter that throws, a Proxy, a function).
function cloneOrUndefined(value: unknown): unknown {
  try {
    return clone(value);
  } catch {
    return undefined;
  }
}

/**
 * Opens one worker's connection to the turn store in `database`.
 *
 * Guarantees: `compareAndSwap` and `admitDispatch` hold the turn's fence from
 * their check to their write (and `admitDispatch` through `launch`), so no
 * admission interleaves with a cancellation; admissions are per effect, keep
 * the request's `admittedAt` as given, and do not change the turn revision; `launch` runs exactly once per admitted call,
 * after the admission committed, and never when the acknowledgement is lost.
 * History entries: `turn-written`, `cancel-committed`, `interrupt-committed`, `result-stored`,
 * `marked-needs-reconciliation`, `admitted`, `launched`, `violation`. After
 * `database.restart()` every call on this connection throws `restarted`.
 *
 * Hostile requests (issue 12): each operation reads its request once and never
 * throws on it. `read`, `replayWindow`, `authorize` and `admitDispatch` answer a
 * request they cannot read (not an object, a throwing getter, a Proxy, a turn
 * id that is not a string) as naming no turn: `null`, an empty window, `false`,
 * `forbidden` (also for a `launch` that is not a function). `compareAndSwap`
 * answers a revision that does not match with the stored turn as always, and
 * rejects with `TypeError` (a `violation` in the history) only for a write it
 * cannot make: a protocol break or a `next` that is not a storable turn record.
 * `listRunningTurns` answers the running turns in turn id order (v1 ids are
 * printable ASCII, so `<` is code point order),
 * strictly after `afterTurnId`, at most `limit` (no cap), from one snapshot,
 * and rejects with `TypeError` for a request `readListRunningTurnsRequest`
 * cannot read (an empty page would tell the sweeper that nothing runs).
 * The test-setup methods throw only `TypeError` for arguments they cannot use.
 * `createFakeTurnStore` throws `TypeError` when `database` is not a usable
 * `FakeDatabase`; it reads the database once.
 */
export function createFakeTurnStore<Result = unknown>(database: FakeDatabase): FakeTurnStore<Result> {
  const connection = connectFakeDatabase(database, 'createFakeTurnStore', Object.values(FAKE_TURN_TABLES));
  const turns = connection.tables.get(FAKE_TURN_TABLES.turns) as Map<string, TurnRow>;
  const grants = connection.tables.get(FAKE_TURN_TABLES.grants) as Map<string, true>;
  const logs = connection.tables.get(FAKE_TURN_TABLES.logs) as Map<string, LogRow>;
  const alive = connection.alive;
  const isGranted = (conversationId: unknown, caller: unknown): boolean => {
    const key = grantKey(conversationId, caller);
    return key !== undefined && grants.has(key);
  };
  const stored = (turnId: string): StoredTurn<Result> | null => {
    const row = turns.get(turnId);
    return row === undefined ? null : (clone(row) as StoredTurn<Result>);
  };

  const writeRecord = (transaction: FakeTransaction, current: TurnRow | null, next: TurnRecord<unknown>): TurnRow => {
    const row: TurnRow = { record: clone(next), admissions: current?.admissions ?? [] };
    turns.set(next.turnId, row);
    transaction.record('turn-written', { revision: next.revision, status: next.status });
    if (next.status === 'cancelled' && current?.record.status !== 'cancelled')
      transaction.record('cancel-committed', { revision: next.revision });
    if (next.status === 'interrupted' && current?.record.status !== 'interrupted')
      transaction.record('interrupt-committed', { revision: next.revision });
    next.effects.forEach((effect, index) => {
      const before = current?.record.effects[index];
      if (effect.status === before?.status) return;
      if (effect.status === 'completed')
        transaction.record('result-stored', { effectId: effect.effectId, result: clone(effect.result), source: effect.source });
      if (effect.status === 'needs-reconciliation')
        transaction.record('marked-needs-reconciliation', { effectId: effect.effectId, reason: effect.reason });
    });
    return row;
  };

  const store: FakeTurnStore<Result> = {
    async read(turnId: string): Promise<StoredTurn<Result> | null> {
      alive('read');
      // A turn id that is not a string names no turn; nothing to ask the database.
      if (typeof turnId !== 'string') return null;
      return connection.call('read', turnId, () => stored(turnId), { turnId });
    },

    async listRunningTurns(given: ListRunningTurnsRequest): Promise<readonly StoredTurn<Result>[]> {
      alive('listRunningTurns');
      const request = readListRunningTurnsRequest(given);
      if (request === undefined)
        throw new TypeError(
          'FakeTurnStore.listRunningTurns: expected { afterTurnId?, limit }, afterTurnId a v1 id and limit a positive integer',
        );
      const { afterTurnId, limit } = request;
      return connection.call('listRunningTurns', afterTurnId ?? '', () =>
        [...turns.entries()]
          .filter(([turnId, row]) => row.record.status === 'running' && (afterTurnId === undefined || turnId > afterTurnId))
          .sort(([left], [right]) => (left < right ? -1 : 1))
          .slice(0, limit)
          .map(([turnId]) => stored(turnId) as StoredTurn<Result>),
      );
    },

    async compareAndSwap(given: CompareAndSwapRequest<Result>): Promise<CompareAndSwapResult<Result>> {
      alive('compareAndSwap');
      const request = readFields(given, ['turnId', 'expectedRevision', 'next']);
      const turnId = request?.turnId;
      // A request that cannot be read, or a turn id that is not a string, names no turn.
      if (request === undefined || typeof turnId !== 'string') return { swapped: false, current: null };
      const { expectedRevision } = request;
      const next = cloneOrUndefined(request.next);
      const conversationId = isRecord(next) && typeof next['conversationId'] === 'string' ? next['conversationId'] : undefined;
      return connection.transact({
        operation: 'compareAndSwap',
        key: turnId,
        target: conversationId === undefined ? { turnId } : { turnId, conversationId },
        body: async (transaction): Promise<CompareAndSwapResult<Result>> => {
          const current = turns.get(turnId) ?? null;
          if ((current?.record.revision ?? 0) !== expectedRevision) return { swapped: false, current: stored(turnId) };
          const violation = protocolViolation(current, turnId, expectedRevision, next);
          if (violation !== null || !isTurnRecordShape(next)) {
            const reason = violation ?? 'the record cannot be read as a turn record';
            transaction.record('violation', { operation: 'compareAndSwap', violation: reason });
            throw new TypeError(`fake turn store: ${reason}`);
          }
          await transaction.pause('checked');
          writeRecord(transaction, current, next);
          return { swapped: true, turn: stored(turnId) as StoredTurn<Result> };
        },
      });
    },

    async admitDispatch(given: AdmitDispatchRequest<string>, launch: () => void): Promise<AdmitDispatchResult> {
      alive('admitDispatch');
      const request = readAdmitDispatchRequest(given);
      // A request that cannot be read names no caller to authorize: nothing is admitted or launched.
      if (request === undefined || typeof launch !== 'function') return { admitted: false, code: 'forbidden' };
      return connection.transact({
        operation: 'admitDispatch',
        key: request.turnId,
        target: { turnId: request.turnId, effectId: request.effectId, conversationId: request.conversationId },
        body: async (transaction): Promise<AdmitDispatchResult> => {
          const current = turns.get(request.turnId);
          const refusal = admissionRefusal(current?.record, request, {
            granted: isGranted(request.conversationId, request.caller),
            admitted: current?.admissions.some((admission) => admission.effectId === request.effectId) ?? false,
          });
          // No refusal means the turn exists; the second test only tells the compiler so.
          if (refusal !== null || current === undefined) return { admitted: false, code: refusal ?? 'unknown-turn' };
          await transaction.pause('checked');
          const admission: EffectAdmission = { effectId: request.effectId, claim: request.claim, admittedAt: request.admittedAt };
          turns.set(request.turnId, { record: current.record, admissions: [...current.admissions, admission] });
          transaction.record('admitted', { effectId: request.effectId, claim: request.claim, admittedAt: request.admittedAt });
          return { admitted: true };
        },
        beforeRelease: (answer) => {
          if (!answer.admitted) return;
          connection.record('launched', request.turnId, { effectId: request.effectId, claim: request.claim });
          launch();
        },
      });
    },

    async replayWindow(given: ReplayWindowRequest): Promise<ReplayWindow> {
      alive('replayWindow');
      const request = readReplayWindowRequest(given);
      // A request that cannot be read names no log.
      if (request === undefined) return EMPTY_REPLAY_WINDOW;
      const { turnId, after } = request;
      const target = { turnId, conversationId: request.conversationId };
      return connection.call(
        'replayWindow',
        turnId,
        () => {
          const log = logs.get(turnId);
          if (log === undefined) return { lowerBound: 0, latestSeq: 0, frames: [] };
          const latestSeq = log.frames[log.frames.length - 1]?.seq ?? log.lowerBound;
          return { lowerBound: log.lowerBound, latestSeq, frames: clone(log.frames.filter((frame) => frame.seq > after)) };
        },
        target,
      );
    },

    async authorize(given: AuthorizationRequest<string>): Promise<boolean> {
      alive('authorize');
      const request = readFields(given, ['caller', 'conversationId', 'turnId']);
      // A request that cannot be read names no caller: no authority.
      if (request === undefined || typeof request.turnId !== 'string' || typeof request.conversationId !== 'string') return false;
      const { caller, conversationId, turnId } = request;
      return connection.call('authorize', turnId, () => isGranted(conversationId, caller), { turnId, conversationId });
    },

    grant(conversationId: string, caller: string): void {
      const key = grantKey(conversationId, caller);
      if (typeof conversationId !== 'string' || key === undefined)
        throw new TypeError('FakeTurnStore.grant: expected a conversation id and a caller JSON can write');
      grants.set(key, true);
    },

    revoke(conversationId: string, caller: string): void {
      const key = grantKey(conversationId, caller);
      if (key !== undefined) grants.delete(key);
    },

    appendFrames(frames: readonly ChatEventEnvelope[]): void {
      // Cloned first, and checked before any is appended: the frames are read once, and all or none land.
      const copies = cloneOrUndefined(frames);
      if (
        !Array.isArray(copies) ||
        !copies.every((frame) => isRecord(frame) && typeof frame['turnId'] === 'string' && typeof frame['seq'] === 'number')
      ) {
        throw new TypeError('FakeTurnStore.appendFrames: expected a list of envelopes, each with a turnId and a seq');
      }
      for (const frame of copies as ChatEventEnvelope[]) {
        const log = logs.get(frame.turnId) ?? { lowerBound: 0, frames: [] };
        logs.set(frame.turnId, { lowerBound: log.lowerBound, frames: [...log.frames, frame] });
      }
    },

    retainAfter(turnId: string, lowerBound: number): void {
      if (typeof lowerBound !== 'number') throw new TypeError('FakeTurnStore.retainAfter: lowerBound must be a number');
      const log = logs.get(turnId) ?? { lowerBound: 0, frames: [] };
      // Retention never passes the latest seq: the window keeps reporting it.
      const latestSeq = log.frames[log.frames.length - 1]?.seq ?? log.lowerBound;
      const bound = Math.min(Math.max(log.lowerBound, lowerBound), latestSeq);
      logs.set(turnId, { lowerBound: bound, frames: log.frames.filter((frame) => frame.seq > bound) });
    },

    peek: stored,

    adapter(options: FakeTurnAdapterOptions = {}): TurnRecoveryAdapter<Result, string> {
      const read = readFields(options, ['capabilities', 'onAbort', 'withoutAdmissionSeam']);
      if (read === undefined)
        throw new TypeError(
          'FakeTurnStore.adapter: the options cannot be read; expected { capabilities?, onAbort?, withoutAdmissionSeam? }',
        );
      const { onAbort } = read;
      if (onAbort !== undefined && typeof onAbort !== 'function') throw new TypeError('FakeTurnStore.adapter: onAbort must be a function');
      const { admitDispatch: _seam, ...withoutSeam } = store;
      return {
        capabilities: read.capabilities ?? FULL_CAPABILITIES,
        authorize: (request) => store.authorize(request),
        store: read.withoutAdmissionSeam === true ? withoutSeam : store,
        replayWindow: (request) => store.replayWindow(request),
        ...(onAbort === undefined
          ? {}
          : {
              abort: (request: AbortRequest) =>
                connection.call('abort', request.turnId, () => onAbort(request), {
                  turnId: request.turnId,
                  conversationId: request.conversationId,
                }),
            }),
      };
    },
  };
  return store;
}
