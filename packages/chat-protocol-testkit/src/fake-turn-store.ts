/**
 * The fake turn store: recovery's `TurnStore`, replay window, authorization and
 * abort hook over a `FakeDatabase`, with real semantics — revision
 * compare-and-swap and `admitDispatch` under one per-turn fence, per-effect
 * admission records, an append-only event log per turn with a retention lower
 * bound. Each `createFakeTurnStore` call is one worker's connection; a restart
 * kills it. It also guards the protocol: a write that would overwrite a stored
 * result, reopen a cancelled turn or lower a claim is refused and recorded as a
 * `violation` in the history.
 */
import { LIGHTWEIGHT_CHAT_CAPABILITIES, type ChatCapabilities, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import type {
  AbortRequest,
  AdmitDispatchRequest,
  AdmitDispatchResult,
  AuthorizationRequest,
  CompareAndSwapRequest,
  CompareAndSwapResult,
  EffectAdmission,
  ReplayWindow,
  ReplayWindowRequest,
  StoredTurn,
  TurnRecord,
  TurnRecoveryAdapter,
  TurnStore,
} from '@papercusp/chat-protocol-recovery';
import { admissionRefusal } from './admission-refusal.js';
import type { FakeDatabase, FakeTransaction } from './fake-database.js';

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
 * (turn), `compareAndSwap` (turn, conversation), `admitDispatch` (turn,
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

function grantKey(conversationId: string, caller: string): string {
  return JSON.stringify([conversationId, caller]);
}

// Why a write breaks the protocol, or null. A real store would accept it; the
// fake one refuses so a broken component shows up in the history.
function protocolViolation(current: TurnRow | null, request: CompareAndSwapRequest<unknown>): string | null {
  const { next } = request;
  if (next.turnId !== request.turnId) return 'the record names another turn';
  if (next.revision !== request.expectedRevision + 1) return 'the revision must go up by one';
  if (current === null) return null;
  const previous = current.record;
  if (next.conversationId !== previous.conversationId) return 'the conversation changed';
  if (previous.status === 'cancelled' && next.status !== 'cancelled') return 'a cancelled turn was reopened';
  if (next.effects.length !== previous.effects.length) return 'the effect list changed';
  for (let index = 0; index < next.effects.length; index += 1) {
    const before = previous.effects[index];
    const after = next.effects[index];
    if (before === undefined || after === undefined || before.effectId !== after.effectId) return 'the effect list changed';
    if (after.claim < before.claim) return `the claim of ${after.effectId} went down`;
    if (before.status === 'completed' && JSON.stringify(after) !== JSON.stringify(before)) return `the stored result of ${after.effectId} was overwritten`;
  }
  return null;
}

/**
 * Opens one worker's connection to the turn store in `database`.
 *
 * Guarantees: `compareAndSwap` and `admitDispatch` hold the turn's fence from
 * their check to their write (and `admitDispatch` through `launch`), so no
 * admission interleaves with a cancellation; admissions are per effect, keep
 * the request's `admittedAt` as given, and do not change the turn revision; `launch` runs exactly once per admitted call,
 * after the admission committed, and never when the acknowledgement is lost.
 * History entries: `turn-written`, `cancel-committed`, `result-stored`,
 * `marked-needs-reconciliation`, `admitted`, `launched`, `violation`. After
 * `database.restart()` every call on this connection throws `restarted`.
 */
export function createFakeTurnStore<Result = unknown>(database: FakeDatabase): FakeTurnStore<Result> {
  const connectedIn = database.epoch;
  const turns = database.table<TurnRow>(FAKE_TURN_TABLES.turns);
  const grants = database.table<true>(FAKE_TURN_TABLES.grants);
  const logs = database.table<LogRow>(FAKE_TURN_TABLES.logs);
  const alive = (operation: string): void => database.assertEpoch(connectedIn, operation);
  const stored = (turnId: string): StoredTurn<Result> | null => {
    const row = turns.get(turnId);
    return row === undefined ? null : (clone(row) as StoredTurn<Result>);
  };

  const writeRecord = (transaction: FakeTransaction, current: TurnRow | null, next: TurnRecord<unknown>): TurnRow => {
    const row: TurnRow = { record: clone(next), admissions: current?.admissions ?? [] };
    turns.set(next.turnId, row);
    transaction.record('turn-written', { revision: next.revision, status: next.status });
    if (next.status === 'cancelled' && current?.record.status !== 'cancelled') transaction.record('cancel-committed', { revision: next.revision });
    next.effects.forEach((effect, index) => {
      const before = current?.record.effects[index];
      if (effect.status === before?.status) return;
      if (effect.status === 'completed') transaction.record('result-stored', { effectId: effect.effectId, result: clone(effect.result), source: effect.source });
      if (effect.status === 'needs-reconciliation') transaction.record('marked-needs-reconciliation', { effectId: effect.effectId, reason: effect.reason });
    });
    return row;
  };

  const store: FakeTurnStore<Result> = {
    async read(turnId: string): Promise<StoredTurn<Result> | null> {
      alive('read');
      return database.call('read', turnId, () => stored(turnId), { turnId });
    },

    async compareAndSwap(request: CompareAndSwapRequest<Result>): Promise<CompareAndSwapResult<Result>> {
      alive('compareAndSwap');
      return database.transact({
        operation: 'compareAndSwap',
        key: request.turnId,
        target: { turnId: request.turnId, conversationId: request.next.conversationId },
        body: async (transaction): Promise<CompareAndSwapResult<Result>> => {
          const current = turns.get(request.turnId) ?? null;
          if ((current?.record.revision ?? 0) !== request.expectedRevision) return { swapped: false, current: stored(request.turnId) };
          const violation = protocolViolation(current, request);
          if (violation !== null) {
            transaction.record('violation', { operation: 'compareAndSwap', violation });
            throw new TypeError(`fake turn store: ${violation}`);
          }
          await transaction.pause('checked');
          writeRecord(transaction, current, request.next);
          return { swapped: true, turn: stored(request.turnId) as StoredTurn<Result> };
        },
      });
    },

    async admitDispatch(request: AdmitDispatchRequest<string>, launch: () => void): Promise<AdmitDispatchResult> {
      alive('admitDispatch');
      return database.transact({
        operation: 'admitDispatch',
        key: request.turnId,
        target: { turnId: request.turnId, effectId: request.effectId, conversationId: request.conversationId },
        body: async (transaction): Promise<AdmitDispatchResult> => {
          const current = turns.get(request.turnId);
          const refusal = admissionRefusal(current, request, grants.has(grantKey(request.conversationId, request.caller)));
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
          database.record('launched', request.turnId, { effectId: request.effectId, claim: request.claim });
          launch();
        },
      });
    },

    async replayWindow(request: ReplayWindowRequest): Promise<ReplayWindow> {
      alive('replayWindow');
      const target = { turnId: request.turnId, conversationId: request.conversationId };
      return database.call('replayWindow', request.turnId, () => {
        const log = logs.get(request.turnId);
        if (log === undefined) return { lowerBound: 0, latestSeq: 0, frames: [] };
        const latestSeq = log.frames[log.frames.length - 1]?.seq ?? log.lowerBound;
        return { lowerBound: log.lowerBound, latestSeq, frames: clone(log.frames.filter((frame) => frame.seq > request.after)) };
      }, target);
    },

    async authorize(request: AuthorizationRequest<string>): Promise<boolean> {
      alive('authorize');
      return database.call('authorize', request.turnId, () => grants.has(grantKey(request.conversationId, request.caller)), {
        turnId: request.turnId,
        conversationId: request.conversationId,
      });
    },

    grant(conversationId: string, caller: string): void {
      grants.set(grantKey(conversationId, caller), true);
    },

    revoke(conversationId: string, caller: string): void {
      grants.delete(grantKey(conversationId, caller));
    },

    appendFrames(frames: readonly ChatEventEnvelope[]): void {
      for (const frame of frames) {
        const log = logs.get(frame.turnId) ?? { lowerBound: 0, frames: [] };
        logs.set(frame.turnId, { lowerBound: log.lowerBound, frames: [...log.frames, clone(frame)] });
      }
    },

    retainAfter(turnId: string, lowerBound: number): void {
      const log = logs.get(turnId) ?? { lowerBound: 0, frames: [] };
      // Retention never passes the latest seq: the window keeps reporting it.
      const latestSeq = log.frames[log.frames.length - 1]?.seq ?? log.lowerBound;
      const bound = Math.min(Math.max(log.lowerBound, lowerBound), latestSeq);
      logs.set(turnId, { lowerBound: bound, frames: log.frames.filter((frame) => frame.seq > bound) });
    },

    peek: stored,

    adapter(options: FakeTurnAdapterOptions = {}): TurnRecoveryAdapter<Result, string> {
      const { onAbort } = options;
      const { admitDispatch: _seam, ...withoutSeam } = store;
      return {
        capabilities: options.capabilities ?? FULL_CAPABILITIES,
        authorize: (request) => store.authorize(request),
        store: options.withoutAdmissionSeam === true ? withoutSeam : store,
        replayWindow: (request) => store.replayWindow(request),
        ...(onAbort === undefined
          ? {}
          : {
              abort: (request: AbortRequest) =>
                database.call('abort', request.turnId, () => onAbort(request), { turnId: request.turnId, conversationId: request.conversationId }),
            }),
      };
    },
  };
  return store;
}
