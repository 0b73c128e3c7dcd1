import type { ChatEventEnvelope, ChatRefusal } from '@papercusp/chat-protocol-core';
import { describe, expectTypeOf, it } from 'vitest';
import {
  TurnRecovery,
  readTurnStatus,
  validateReplayWindow,
  type AppendChatEventResult,
  type ChatConversationStore,
  type ConversationLogReader,
  type ReadConversationLogResult,
  type ReadTurnStatusResult,
  type TurnStatusReading,
  type CancelTurnRefusalCode,
  type FinishedTurnStatus,
  type FinishTurnRefusalCode,
  type FinishTurnResult,
  type CancelTurnResult,
  type CapabilityRefusal,
  type CheckpointFailedRefusal,
  type ClaimEffectRefusalCode,
  type DeclareEffectRefusalCode,
  type DeclareEffectResult,
  type DispatchEffectRefusalCode,
  type InspectTurnRefusalCode,
  type ReconcileEffectRefusalCode,
  type ReplayTurnRefusalCode,
  type StartTurnRefusalCode,
  type ValidateReplayWindowRefusalCode,
  type ChatEventLog,
  type ChatEventLogSubscriptionEnd,
  type PruneTurnsResult,
  type ReplayWindow,
  type TurnRecoveryAdapter,
  type ClaimEffectResult,
  type DeliveryState,
  type InterruptTurnRefusalCode,
  type InterruptTurnResult,
  type RenewRunLeaseRefusalCode,
  type RenewRunLeaseResult,
  type RunLease,
  type RunLeaseHeldRefusal,
  type TurnInspection,
  type DispatchEffectResult,
  type EffectClaim,
  type EffectState,
  type InspectTurnResult,
  type NeedsReconciliationReason,
  type ReconcileEffectResult,
  type ReplayTurnResult,
  type StartTurnResult,
  type TurnRecord,
  type TurnStatusResponse,
  type ValidateReplayWindowResult,
} from './index.js';

interface Receipt {
  readonly receiptId: string;
}

declare const recovery: TurnRecovery<Receipt, { userId: string }>;
declare const claim: EffectClaim;

describe('public types', () => {
  it('operations are typed by the result the host stores and the caller it authorizes', () => {
    expectTypeOf(recovery.dispatchEffect).parameter(0).toHaveProperty('caller').toEqualTypeOf<{ userId: string }>();
    expectTypeOf(recovery.dispatchEffect({ caller: { userId: 'u' }, claim, execute: () => ({ receiptId: 'r' }) })).resolves.toEqualTypeOf<
      DispatchEffectResult<Receipt>
    >();
    expectTypeOf(recovery.claimEffect).returns.resolves.toEqualTypeOf<ClaimEffectResult<Receipt>>();
    expectTypeOf(recovery.startTurn).returns.resolves.toEqualTypeOf<StartTurnResult<Receipt>>();
    expectTypeOf(recovery.declareEffect).returns.resolves.toEqualTypeOf<DeclareEffectResult>();
    expectTypeOf(recovery.cancelTurn).returns.resolves.toEqualTypeOf<CancelTurnResult>();
    expectTypeOf(recovery.reconcileEffect).returns.resolves.toEqualTypeOf<ReconcileEffectResult<Receipt>>();
    expectTypeOf(recovery.replayTurn).returns.resolves.toEqualTypeOf<ReplayTurnResult>();
    expectTypeOf(recovery.inspectTurn).returns.resolves.toEqualTypeOf<InspectTurnResult<Receipt>>();
  });

  it('an inspection narrows each effect by its state (§6.11)', () => {
    const result = {} as InspectTurnResult<Receipt>;
    if (result.ok) {
      const effect = result.value.effects[0];
      expectTypeOf<NonNullable<typeof effect>['state']>().toEqualTypeOf<EffectState>();
      if (effect?.state === 'completed') expectTypeOf(effect.result).toEqualTypeOf<Receipt>();
      if (effect?.state === 'in-flight') expectTypeOf(effect.admittedAt).toEqualTypeOf<string>();
      if (effect?.state === 'uncertain') expectTypeOf(effect.admittedAt).toEqualTypeOf<string | null>();
      if (effect?.state === 'needs-reconciliation') expectTypeOf(effect.reason).toEqualTypeOf<NeedsReconciliationReason>();
    } else {
      expectTypeOf(result.code).toEqualTypeOf<
        | 'unsupported-capability'
        | 'invalid-capabilities'
        | 'invalid-request'
        | 'forbidden'
        | 'unknown-turn'
        | 'clock-unavailable'
        | 'store-unavailable'
      >();
    }
  });

  it('a dispatch outcome narrows to completed, needs-reconciliation or a refusal code', () => {
    const result = {} as DispatchEffectResult<Receipt>;
    if (result.ok && result.outcome === 'completed') {
      expectTypeOf(result.result).toEqualTypeOf<Receipt>();
      expectTypeOf(result.reused).toEqualTypeOf<boolean>();
    }
    if (result.ok && result.outcome === 'needs-reconciliation') expectTypeOf(result.reason).toEqualTypeOf<NeedsReconciliationReason>();
    if (!result.ok) {
      expectTypeOf(result.code).toEqualTypeOf<
        | 'unsupported-capability'
        | 'invalid-capabilities'
        | 'no-admission-seam'
        | 'invalid-request'
        | 'forbidden'
        | 'unknown-turn'
        | 'turn-not-running'
        | 'unknown-effect'
        | 'already-admitted'
        | 'stale-claim'
        | 'clock-unavailable'
        | 'store-unavailable'
        | 'checkpoint-failed'
      >();
      if (result.code === 'checkpoint-failed') expectTypeOf(result.result).toEqualTypeOf<Receipt>();
      if (result.code === 'unsupported-capability')
        expectTypeOf(result.missing).toEqualTypeOf<
          readonly (
            'connectionReplay' | 'persistedHistory' | 'persistedDecisions' | 'completedToolCheckpoints' | 'interruptedTurnRecovery'
          )[]
        >();
    }
  });

  it('every operation keeps its exact refusal code union', () => {
    type Capability = 'unsupported-capability' | 'invalid-capabilities';
    expectTypeOf<StartTurnRefusalCode>().toEqualTypeOf<
      Capability | 'invalid-request' | 'forbidden' | 'turn-conflict' | 'clock-unavailable' | 'checkpoint-failed'
    >();
    expectTypeOf<RenewRunLeaseRefusalCode>().toEqualTypeOf<
      | Capability
      | 'invalid-request'
      | 'forbidden'
      | 'unknown-turn'
      | 'store-unavailable'
      | 'turn-not-running'
      | 'run-lease-lost'
      | 'clock-unavailable'
      | 'checkpoint-failed'
    >();
    expectTypeOf<InterruptTurnRefusalCode>().toEqualTypeOf<
      | Capability
      | 'invalid-request'
      | 'forbidden'
      | 'unknown-turn'
      | 'store-unavailable'
      | 'turn-not-running'
      | 'run-lease-held'
      | 'clock-unavailable'
      | 'checkpoint-failed'
    >();
    expectTypeOf<DeclareEffectRefusalCode>().toEqualTypeOf<
      | Capability
      | 'invalid-request'
      | 'forbidden'
      | 'unknown-turn'
      | 'store-unavailable'
      | 'turn-not-running'
      | 'too-many-effects'
      | 'checkpoint-failed'
    >();
    // dispatchEffect's and inspectTurn's codes are pinned literally by the narrowing tests above: their unions are the results' codes.
    expectTypeOf<DispatchEffectRefusalCode>().toEqualTypeOf<Extract<DispatchEffectResult<Receipt>, { ok: false }>['code']>();
    // A claim refuses what a dispatch does, but for the admission seam and a newer claim.
    expectTypeOf<ClaimEffectRefusalCode>().toEqualTypeOf<Exclude<DispatchEffectRefusalCode, 'no-admission-seam' | 'stale-claim'>>();
    expectTypeOf<CancelTurnRefusalCode>().toEqualTypeOf<
      Capability | 'invalid-request' | 'forbidden' | 'unknown-turn' | 'store-unavailable' | 'checkpoint-failed'
    >();
    expectTypeOf<ReconcileEffectRefusalCode>().toEqualTypeOf<
      Capability | 'invalid-request' | 'forbidden' | 'unknown-turn' | 'unknown-effect' | 'store-unavailable' | 'checkpoint-failed'
    >();
    expectTypeOf<ReplayTurnRefusalCode>().toEqualTypeOf<
      Capability | 'invalid-request' | 'forbidden' | 'replay-unavailable' | ValidateReplayWindowRefusalCode
    >();
    expectTypeOf<InspectTurnRefusalCode>().toEqualTypeOf<Extract<InspectTurnResult<Receipt>, { ok: false }>['code']>();
  });

  it("every operation's refusals are the capability refusals and a plain refusal of each other code (checkpoint-failed carries the result)", () => {
    type Refused<Result> = Extract<Result, { ok: false }>;
    type Plain<Code extends string, Carried extends string = never> =
      CapabilityRefusal | ChatRefusal<Exclude<Code, CapabilityRefusal['code'] | Carried>>;
    expectTypeOf<Refused<StartTurnResult<Receipt>>>().toEqualTypeOf<Plain<StartTurnRefusalCode>>();
    expectTypeOf<Refused<DeclareEffectResult>>().toEqualTypeOf<Plain<DeclareEffectRefusalCode>>();
    expectTypeOf<Refused<ClaimEffectResult<Receipt>>>().toEqualTypeOf<Plain<ClaimEffectRefusalCode>>();
    expectTypeOf<Refused<DispatchEffectResult<Receipt>>>().toEqualTypeOf<
      CheckpointFailedRefusal<Receipt> | Plain<DispatchEffectRefusalCode, 'checkpoint-failed'>
    >();
    expectTypeOf<Refused<CancelTurnResult>>().toEqualTypeOf<Plain<CancelTurnRefusalCode>>();
    expectTypeOf<Refused<ReconcileEffectResult<Receipt>>>().toEqualTypeOf<
      CheckpointFailedRefusal<Receipt> | Plain<ReconcileEffectRefusalCode, 'checkpoint-failed'>
    >();
    expectTypeOf<Refused<ReplayTurnResult>>().toEqualTypeOf<Plain<ReplayTurnRefusalCode>>();
    expectTypeOf<Refused<InspectTurnResult<Receipt>>>().toEqualTypeOf<Plain<InspectTurnRefusalCode>>();
    expectTypeOf<Refused<RenewRunLeaseResult>>().toEqualTypeOf<Plain<RenewRunLeaseRefusalCode>>();
    expectTypeOf<Refused<InterruptTurnResult<Receipt>>>().toEqualTypeOf<
      RunLeaseHeldRefusal | Plain<InterruptTurnRefusalCode, 'run-lease-held'>
    >();
  });

  it('run leases (§6 rule 12): a renewal names the lease, an interruption its outcome and the inspected turn, a held lease its deadline', () => {
    expectTypeOf(recovery.renewRunLease).returns.resolves.toEqualTypeOf<RenewRunLeaseResult>();
    expectTypeOf(recovery.interruptTurn).returns.resolves.toEqualTypeOf<InterruptTurnResult<Receipt>>();
    expectTypeOf(recovery.renewRunLease).parameter(0).toHaveProperty('runId').toEqualTypeOf<string>();
    expectTypeOf(recovery.startTurn).parameter(0).toHaveProperty('runId').toEqualTypeOf<string | undefined>();
    expectTypeOf<RunLease>().toEqualTypeOf<{ readonly runId: string; readonly leaseExpiresAt: string }>();
    const renewed = {} as RenewRunLeaseResult;
    if (renewed.ok) expectTypeOf(renewed.run).toEqualTypeOf<RunLease>();
    const interrupted = {} as InterruptTurnResult<Receipt>;
    if (interrupted.ok) {
      expectTypeOf(interrupted.outcome).toEqualTypeOf<'interrupted' | 'already-interrupted'>();
      expectTypeOf(interrupted.turn).toEqualTypeOf<TurnInspection<Receipt>>();
    } else if (interrupted.code === 'run-lease-held') expectTypeOf(interrupted.run).toEqualTypeOf<RunLease>();
    expectTypeOf<TurnInspection<Receipt>['run']>().toEqualTypeOf<RunLease | undefined>();
    expectTypeOf<TurnRecord<Receipt>['run']>().toEqualTypeOf<RunLease | undefined>();
    expectTypeOf<TurnStatusResponse['run']>().toEqualTypeOf<{ runId: string; leaseExpiresAt: string } | undefined>();
  });

  it('finishing a turn (§6 rule 12) names the run and the terminal status; the answer carries the stored status', () => {
    expectTypeOf(recovery.finishTurn).returns.resolves.toEqualTypeOf<FinishTurnResult>();
    expectTypeOf(recovery.finishTurn).parameter(0).toHaveProperty('status').toEqualTypeOf<FinishedTurnStatus>();
    expectTypeOf<FinishedTurnStatus>().toEqualTypeOf<'completed' | 'failed' | 'needs-reconciliation'>();
    const finished = {} as FinishTurnResult;
    if (finished.ok) expectTypeOf(finished.outcome).toEqualTypeOf<'finished' | 'already-finished'>();
    else expectTypeOf(finished.code).toEqualTypeOf<FinishTurnRefusalCode>();
  });

  it('a declaration succeeds as declared or already-declared (§6 rule 1)', () => {
    const result = {} as DeclareEffectResult;
    if (result.ok) expectTypeOf(result.outcome).toEqualTypeOf<'declared' | 'already-declared'>();
  });

  it('a claim carries the claim number admission checks', () => {
    const result = {} as ClaimEffectResult<Receipt>;
    if (result.ok && result.outcome === 'claimed') expectTypeOf(result.claim.claim).toEqualTypeOf<number>();
  });

  it('turn records keep their result type and are read-only', () => {
    expectTypeOf<TurnRecord<Receipt>['status']>().toEqualTypeOf<
      'running' | 'cancelled' | 'interrupted' | 'completed' | 'failed' | 'needs-reconciliation'
    >();
    expectTypeOf<Extract<TurnRecord<Receipt>['effects'][number], { status: 'completed' }>['result']>().toEqualTypeOf<Receipt>();
  });

  it('replay validation and the client types', () => {
    expectTypeOf(validateReplayWindow).returns.toEqualTypeOf<ValidateReplayWindowResult>();
    expectTypeOf<DeliveryState>().toEqualTypeOf<'waiting' | 'sending' | 'sent' | 'still-working' | 'not-sent' | 'check'>();
    expectTypeOf<TurnStatusResponse['status']>().toEqualTypeOf<
      'running' | 'completed' | 'cancelled' | 'interrupted' | 'needs-reconciliation' | 'failed' | 'not-found'
    >();
    expectTypeOf<TurnStatusResponse['lastSeq']>().toEqualTypeOf<number | undefined>();
  });

  it('the event log: append narrows to appended/duplicate or its refusal codes; seq-gap names the expected seq (DESIGN §9.3)', () => {
    const result = {} as AppendChatEventResult;
    if (result.ok) {
      expectTypeOf(result.outcome).toEqualTypeOf<'appended' | 'duplicate'>();
      expectTypeOf(result.latestSeq).toEqualTypeOf<number>();
    } else {
      expectTypeOf(result.code).toEqualTypeOf<
        'invalid-envelope' | 'foreign-conversation' | 'conflicting-duplicate' | 'turn-terminal' | 'seq-gap' | 'store-unavailable'
      >();
      if (result.code === 'seq-gap') expectTypeOf(result.expectedSeq).toEqualTypeOf<number>();
    }
    const pruned = {} as PruneTurnsResult;
    if (pruned.ok) expectTypeOf(pruned.pruned).toEqualTypeOf<number>();
    else expectTypeOf(pruned.code).toEqualTypeOf<'invalid-request' | 'store-unavailable'>();
  });

  it("the event log's replayWindow is the adapter's replay seam as it is, and subscribe resolves with an unsubscribe", () => {
    const log = {} as ChatEventLog;
    expectTypeOf(log.replayWindow).returns.resolves.toEqualTypeOf<ReplayWindow>();
    expectTypeOf(log.replayWindow).toExtend<NonNullable<TurnRecoveryAdapter<Receipt, string>['replayWindow']>>();
    expectTypeOf(log.subscribe).returns.resolves.toEqualTypeOf<() => void>();
    expectTypeOf(log.append).returns.resolves.toEqualTypeOf<AppendChatEventResult>();
  });

  it('a subscription ends as typed data: terminal, or lost with the seq to resubscribe from; onEnd is optional (DESIGN §9.3)', () => {
    const log = {} as ChatEventLog;
    expectTypeOf(log.subscribe).parameter(2).toEqualTypeOf<((end: ChatEventLogSubscriptionEnd) => void) | undefined>();
    const end = {} as ChatEventLogSubscriptionEnd;
    expectTypeOf(end.reason).toEqualTypeOf<'terminal' | 'lost'>();
    if (end.reason === 'lost') expectTypeOf(end.afterSeq).toEqualTypeOf<number>();
    // @ts-expect-error a terminal end carries no seq
    if (end.reason === 'terminal') void end.afterSeq;
    void log.subscribe({ conversationId: 'conv_1', turnId: 'turn_1', after: 0 }, () => undefined);
  });

  it('the conversation contract: a bounded log read narrows to its turns or its refusal codes, too-large ones with the limit (issue 25)', () => {
    const result = {} as ReadConversationLogResult;
    if (result.ok) {
      expectTypeOf(result.value.conversationId).toEqualTypeOf<string>();
      expectTypeOf<(typeof result.value.turns)[number]>().toEqualTypeOf<{
        readonly turnId: string;
        readonly lowerBound: number;
        readonly latestSeq: number;
        readonly ended: boolean;
        readonly pruned: boolean;
        readonly frames: readonly ChatEventEnvelope[];
      }>();
    } else {
      expectTypeOf(result.code).toEqualTypeOf<'invalid-request' | 'too-many-turns' | 'too-many-frames' | 'store-unavailable'>();
      if (result.code === 'too-many-turns' || result.code === 'too-many-frames') expectTypeOf(result.limit).toEqualTypeOf<number>();
    }
    expectTypeOf<ChatConversationStore<{ userId: string }>['readConversationLog']>().toEqualTypeOf<ConversationLogReader>();
    expectTypeOf<ChatConversationStore<{ userId: string }>['authorizeConversation']>()
      .parameter(0)
      .toEqualTypeOf<{ readonly caller: { userId: string }; readonly conversationId: string }>();
    expectTypeOf<ChatConversationStore<{ userId: string }>['authorizeConversation']>().returns.toEqualTypeOf<Promise<boolean>>();
  });

  it('readTurnStatus answers a TurnStatusResponse whose stored turns carry lastSeq, over an adapter-shaped source (issue 25)', () => {
    expectTypeOf(readTurnStatus).returns.resolves.toEqualTypeOf<ReadTurnStatusResult>();
    expectTypeOf<TurnStatusReading>().toExtend<TurnStatusResponse>();
    const result = {} as ReadTurnStatusResult;
    if (result.ok && result.value.status !== 'not-found') expectTypeOf(result.value.lastSeq).toEqualTypeOf<number>();
    if (!result.ok) expectTypeOf(result.code).toEqualTypeOf<'invalid-request' | 'store-unavailable'>();
    const log = {} as ChatEventLog;
    const store = {} as TurnRecoveryAdapter<Receipt, string>['store'] & {};
    expectTypeOf(readTurnStatus).toBeCallableWith(
      { store, replayWindow: (request) => log.replayWindow(request) },
      {
        conversationId: 'conv_1',
        turnId: 'turn_1',
      },
    );
  });
});
