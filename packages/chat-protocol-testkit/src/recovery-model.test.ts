import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import type { DispatchEffectResult, EffectClaim, NeedsReconciliationReason } from '@papercusp/chat-protocol-recovery';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ADMISSION_LEASE_MS,
  CONVERSATION_ID,
  OWNER,
  RUN_LEASE_MS,
  TURN,
  TURN_ID,
  clusterInstant,
  createCluster,
  resultOf,
  type Cluster,
  type Worker,
} from '../test/host.js';
import { runs } from '../../../test-support/property-runs.js';

// A model-based test (issue 5): random sequences of start / claim / dispatch /
// complete / fail / cancel / reconcile / append / retain / replay / restart /
// advancing the clock past the admission lease (issue 12, §6.11) and the run
// lease, with renewals, interruptions and finishes by the turn's run or
// another (issue 27, §6 rule 12), run against TurnRecovery on the fake store, and against a reference model that
// is a few lines of plain state. Every answer must equal the model's, the
// store must hold what the model holds, and no effect may launch twice.

const EFFECTS = ['pay', 'mail'] as const;
type EffectId = (typeof EFFECTS)[number];
type EffectState = 'open' | 'admitted' | 'completed' | 'needs-reconciliation';

/** The run the turn is started by; the commands also act as another run, which owns nothing. */
const RUN_ID = 'run_model';

interface Model {
  started: boolean;
  status: 'running' | 'cancelled' | 'interrupted' | 'completed';
  /** The run lease's deadline, in milliseconds after the cluster's start. */
  leaseExpiresAt: number;
  effects: Record<
    EffectId,
    { state: EffectState; claim: number; result?: string; reason?: NeedsReconciliationReason; admittedAt?: number }
  >;
  /** The workers' clock, in milliseconds after the cluster's start. */
  now: number;
  /** Claims each worker holds and has not dispatched yet. */
  held: [Map<EffectId, number>, Map<EffectId, number>];
  /** Effects whose execution is running (admitted in this process). */
  inFlight: Set<EffectId>;
  lowerBound: number;
  latestSeq: number;
}

interface Real {
  cluster: Cluster;
  workers: [Worker, Worker];
  held: [Map<EffectId, EffectClaim>, Map<EffectId, EffectClaim>];
  pending: Map<EffectId, Promise<DispatchEffectResult<string>>>;
}

type Command = fc.AsyncCommand<Model, Real>;

function inFlightOrder(model: Model): EffectId[] {
  return EFFECTS.filter((effectId) => model.effects[effectId].state === 'admitted');
}

function frame(seq: number): ChatEventEnvelope {
  return {
    schemaVersion: 1,
    conversationId: CONVERSATION_ID,
    turnId: TURN_ID,
    eventId: `evt_${seq}`,
    seq,
    occurredAt: '2026-11-30T10:00:00Z',
    event: { type: 'delta', text: `part ${seq}` },
  };
}

// After every command: the store holds exactly what the model says, and the history shows no double launch.
function agree(model: Model, real: Real): void {
  const stored = real.cluster.peek();
  if (!model.started) {
    expect(stored).toBeNull();
    return;
  }
  expect(stored?.record.status).toBe(model.status);
  expect(stored?.record.run).toEqual({ runId: RUN_ID, leaseExpiresAt: clusterInstant(model.leaseExpiresAt) });
  for (const effectId of EFFECTS) {
    const effect = stored?.record.effects.find((candidate) => candidate.effectId === effectId);
    const expected = model.effects[effectId];
    // Once admitted, a claim written from a snapshot older than the admission may
    // still raise the number (admissions do not move the revision); it can never
    // be admitted, so only an open effect's claim number is the model's.
    if (expected.state === 'open') expect(effect?.claim).toBe(expected.claim);
    else expect(effect?.claim).toBeGreaterThanOrEqual(expected.claim);
    const admitted = stored?.admissions.some((admission) => admission.effectId === effectId) ?? false;
    if (expected.state === 'completed') expect(effect).toMatchObject({ status: 'completed', result: expected.result });
    else if (expected.state === 'needs-reconciliation')
      expect(effect).toMatchObject({ status: 'needs-reconciliation', reason: expected.reason });
    else expect({ status: effect?.status, admitted }).toEqual({ status: 'open', admitted: expected.state === 'admitted' });
  }
  const launched = real.cluster.database.history.filter((entry) => entry.type === 'launched').map((entry) => entry.detail['effectId']);
  expect(new Set(launched).size).toBe(launched.length);
  expect(real.cluster.database.history.filter((entry) => entry.type === 'violation')).toEqual([]);
}

class Start implements Command {
  check = () => true;
  async run(model: Model, real: Real) {
    // The turn started in the setup: starting it again finds it.
    expect(await real.workers[1].recovery.startTurn({ ...TURN, effectIds: [...EFFECTS] })).toMatchObject({ ok: true, outcome: 'existing' });
    agree(model, real);
  }
  toString = () => 'start again';
}

class Claim implements Command {
  constructor(
    readonly worker: 0 | 1,
    readonly effectId: EffectId,
  ) {}
  check = (model: Readonly<Model>) => model.started;
  async run(model: Model, real: Real) {
    const answer = await real.workers[this.worker].recovery.claimEffect({ ...TURN, effectId: this.effectId });
    const effect = model.effects[this.effectId];
    if (effect.state === 'completed') expect(answer).toEqual({ ok: true, outcome: 'completed', reused: true, result: effect.result });
    else if (effect.state === 'needs-reconciliation')
      expect(answer).toMatchObject({ ok: true, outcome: 'needs-reconciliation', reason: effect.reason });
    else if (effect.state === 'admitted' && model.now - (effect.admittedAt ?? 0) >= ADMISSION_LEASE_MS) {
      // Past the lease: the claim durably marks the orphan, in a cancelled turn too; nothing relaunches it.
      expect(answer).toMatchObject({ ok: true, outcome: 'needs-reconciliation', reason: 'admission-expired' });
      effect.state = 'needs-reconciliation';
      effect.reason = 'admission-expired';
    } else if (model.status !== 'running') expect(answer).toMatchObject({ ok: false, code: 'turn-not-running' });
    else if (effect.state === 'admitted') expect(answer).toMatchObject({ ok: false, code: 'already-admitted' });
    else {
      effect.claim += 1;
      expect(answer).toEqual({
        ok: true,
        outcome: 'claimed',
        claim: { conversationId: CONVERSATION_ID, turnId: TURN_ID, effectId: this.effectId, claim: effect.claim },
      });
      if (answer.ok && answer.outcome === 'claimed') real.held[this.worker].set(this.effectId, answer.claim);
      model.held[this.worker].set(this.effectId, effect.claim);
    }
    agree(model, real);
  }
  toString = () => `claim(worker ${this.worker}, ${this.effectId})`;
}

class Dispatch implements Command {
  constructor(
    readonly worker: 0 | 1,
    readonly effectId: EffectId,
  ) {}
  check = (model: Readonly<Model>) => model.held[this.worker].has(this.effectId);
  async run(model: Model, real: Real) {
    const claim = real.held[this.worker].get(this.effectId);
    const heldClaim = model.held[this.worker].get(this.effectId);
    real.held[this.worker].delete(this.effectId);
    model.held[this.worker].delete(this.effectId);
    if (claim === undefined) throw new Error('the real worker lost its claim');
    const effect = model.effects[this.effectId];
    const launch = real.cluster.nextLaunch().then(() => 'launched' as const);
    const pending = real.workers[this.worker].recovery.dispatchEffect({ caller: OWNER, claim, execute: real.cluster.execute('deferred') });
    // Where the model expects no launch, a launch is the answer that fails the run (its dispatch would wait forever).
    const answer = () => Promise.race([pending, launch]);
    if (model.status !== 'running') expect(await answer()).toMatchObject({ ok: false, code: 'turn-not-running' });
    else if (effect.state === 'completed')
      expect(await answer()).toEqual({ ok: true, outcome: 'completed', reused: true, result: effect.result });
    else if (effect.state === 'needs-reconciliation') expect(await answer()).toMatchObject({ ok: true, outcome: 'needs-reconciliation' });
    else if (effect.state === 'admitted') expect(await answer()).toMatchObject({ ok: false, code: 'already-admitted' });
    else if (heldClaim !== effect.claim) expect(await answer()).toMatchObject({ ok: false, code: 'stale-claim' });
    else {
      await real.cluster.launched(this.effectId);
      effect.state = 'admitted';
      effect.admittedAt = model.now;
      model.inFlight.add(this.effectId);
      real.pending.set(this.effectId, pending);
    }
    agree(model, real);
  }
  toString = () => `dispatch(worker ${this.worker}, ${this.effectId})`;
}

class ClaimThenDispatch implements Command {
  constructor(
    readonly worker: 0 | 1,
    readonly effectId: EffectId,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    await new Claim(this.worker, this.effectId).run(model, real);
    if (model.held[this.worker].has(this.effectId)) await new Dispatch(this.worker, this.effectId).run(model, real);
  }
  toString = () => `claim+dispatch(worker ${this.worker}, ${this.effectId})`;
}

class Complete implements Command {
  constructor(
    readonly effectId: EffectId,
    readonly fails: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.inFlight.has(this.effectId);
  async run(model: Model, real: Real) {
    const pending = real.pending.get(this.effectId);
    real.pending.delete(this.effectId);
    model.inFlight.delete(this.effectId);
    if (this.fails) real.cluster.fail(this.effectId);
    else real.cluster.settle(this.effectId);
    const answer = await pending;
    const effect = model.effects[this.effectId];
    if (effect.state === 'completed') expect(answer).toEqual({ ok: true, outcome: 'completed', reused: true, result: effect.result });
    else if (this.fails) {
      expect(answer).toMatchObject({ ok: true, outcome: 'needs-reconciliation', reason: 'dispatch-failed' });
      // An effect already marked (its admission expired while it ran) keeps its first reason.
      if (effect.state !== 'needs-reconciliation') {
        effect.state = 'needs-reconciliation';
        effect.reason = 'dispatch-failed';
      }
    } else {
      // A late result is stored even after its admission was marked expired.
      expect(answer).toEqual({ ok: true, outcome: 'completed', reused: false, result: resultOf(this.effectId) });
      effect.state = 'completed';
      effect.result = resultOf(this.effectId);
    }
    agree(model, real);
  }
  toString = () => `${this.fails ? 'fail' : 'complete'}(${this.effectId})`;
}

class Cancel implements Command {
  constructor(readonly worker: 0 | 1) {}
  check = (model: Readonly<Model>) => model.started;
  async run(model: Model, real: Real) {
    const answer = await real.workers[this.worker].recovery.cancelTurn(TURN);
    const inFlight = inFlightOrder(model);
    expect(answer).toEqual({
      ok: true,
      outcome: 'cancelled',
      committed: model.status === 'running',
      inFlight,
      abort: inFlight.length === 0 ? 'not-needed' : 'requested',
    });
    if (model.status === 'running') model.status = 'cancelled';
    await abortedInFlight(model, real, inFlight);
    agree(model, real);
  }
  toString = () => `cancel(worker ${this.worker})`;
}

// After a cancellation or an interruption: the abort hook reached every execution running here, and their
// dispatches end as needs-reconciliation.
async function abortedInFlight(model: Model, real: Real, inFlight: readonly EffectId[]): Promise<void> {
  for (const effectId of inFlight.filter((candidate) => model.inFlight.has(candidate))) {
    expect(await real.pending.get(effectId)).toMatchObject({ ok: true, outcome: 'needs-reconciliation', reason: 'dispatch-failed' });
    real.pending.delete(effectId);
    model.inFlight.delete(effectId);
    model.effects[effectId].state = 'needs-reconciliation';
    model.effects[effectId].reason = 'dispatch-failed';
  }
}

/** A command on one of the workers, as the turn's run (`own`) or as another. */
abstract class RunCommand implements Command {
  constructor(
    readonly worker: 0 | 1,
    readonly own: boolean,
  ) {}
  check = () => true;
  abstract run(model: Model, real: Real): Promise<void>;
}

/** A renewal of the run lease by the turn's run (`own`) or another. */
class Renew extends RunCommand {
  override async run(model: Model, real: Real) {
    const runId = this.own ? RUN_ID : 'run_other';
    const answer = await real.workers[this.worker].recovery.renewRunLease({ ...TURN, runId });
    // Another run's renewal stops on any snapshot, a stale one (still running) included: either refusal is final.
    if (!this.own)
      expect(answer).toMatchObject({
        ok: false,
        code: model.status === 'running' ? 'run-lease-lost' : expect.stringMatching(/^(turn-not-running|run-lease-lost)$/),
      });
    else if (model.status !== 'running') expect(answer).toMatchObject({ ok: false, code: 'turn-not-running' });
    else {
      // Never earlier than the deadline it had; past it too, while nobody interrupted.
      model.leaseExpiresAt = Math.max(model.leaseExpiresAt, model.now + RUN_LEASE_MS);
      expect(answer).toEqual({ ok: true, outcome: 'renewed', run: { runId, leaseExpiresAt: clusterInstant(model.leaseExpiresAt) } });
    }
    agree(model, real);
  }
  override toString = () => `renew(worker ${this.worker}, ${this.own ? 'its run' : 'another run'})`;
}

/** An interruption by another process (past the lease only), or by the turn's own run giving it up (a drain). */
class Interrupt extends RunCommand {
  override async run(model: Model, real: Real) {
    const answer = await real.workers[this.worker].recovery.interruptTurn({ ...TURN, ...(this.own ? { runId: RUN_ID } : {}) });
    const inFlight = inFlightOrder(model);
    if (model.status === 'interrupted') expect(answer).toMatchObject({ ok: true, outcome: 'already-interrupted', inFlight });
    else if (model.status !== 'running') expect(answer).toMatchObject({ ok: false, code: 'turn-not-running' });
    else if (!this.own && model.now < model.leaseExpiresAt)
      expect(answer).toMatchObject({
        ok: false,
        code: 'run-lease-held',
        run: { runId: RUN_ID, leaseExpiresAt: clusterInstant(model.leaseExpiresAt) },
      });
    else {
      expect(answer).toMatchObject({
        ok: true,
        outcome: 'interrupted',
        turn: { status: 'interrupted' },
        inFlight,
        abort: inFlight.length === 0 ? 'not-needed' : 'requested',
      });
      model.status = 'interrupted';
      await abortedInFlight(model, real, inFlight);
    }
    agree(model, real);
  }
  override toString = () => `interrupt(worker ${this.worker}, ${this.own ? 'by its run' : 'past the lease'})`;
}

/** The turn's run (`own`) or another finishing the turn once its terminal frame is written. */
class Finish extends RunCommand {
  override async run(model: Model, real: Real) {
    const runId = this.own ? RUN_ID : 'run_other';
    const answer = await real.workers[this.worker].recovery.finishTurn({ ...TURN, runId, status: 'completed' });
    if (!this.own) expect(answer).toMatchObject({ ok: false, code: 'run-lease-lost' });
    else if (model.status === 'completed') expect(answer).toEqual({ ok: true, outcome: 'already-finished', status: 'completed' });
    else if (model.status !== 'running') expect(answer).toMatchObject({ ok: false, code: 'turn-not-running' });
    else {
      // Whatever is in flight runs on: a finish aborts nothing, and a late result is still stored.
      expect(answer).toEqual({ ok: true, outcome: 'finished', status: 'completed' });
      model.status = 'completed';
    }
    agree(model, real);
  }
  override toString = () => `finish(worker ${this.worker}, ${this.own ? 'its run' : 'another run'})`;
}

class Reconcile implements Command {
  constructor(
    readonly worker: 0 | 1,
    readonly effectId: EffectId,
  ) {}
  check = (model: Readonly<Model>) => model.started;
  async run(model: Model, real: Real) {
    const verified = `verified:${this.effectId}`;
    const answer = await real.workers[this.worker].recovery.reconcileEffect({ ...TURN, effectId: this.effectId, result: verified });
    const effect = model.effects[this.effectId];
    if (effect.state === 'completed') expect(answer).toEqual({ ok: true, outcome: 'completed', reused: true, result: effect.result });
    else {
      expect(answer).toEqual({ ok: true, outcome: 'completed', reused: false, result: verified });
      effect.state = 'completed';
      effect.result = verified;
    }
    agree(model, real);
  }
  toString = () => `reconcile(worker ${this.worker}, ${this.effectId})`;
}

class Append implements Command {
  constructor(readonly count: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    real.workers[0].store.appendFrames(Array.from({ length: this.count }, (_, index) => frame(model.latestSeq + index + 1)));
    model.latestSeq += this.count;
    return Promise.resolve();
  }
  toString = () => `append(${this.count})`;
}

class Retain implements Command {
  constructor(readonly after: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    real.workers[0].store.retainAfter(TURN_ID, this.after);
    model.lowerBound = Math.min(Math.max(model.lowerBound, this.after), model.latestSeq);
    return Promise.resolve();
  }
  toString = () => `retain(${this.after})`;
}

class Replay implements Command {
  constructor(
    readonly worker: 0 | 1,
    readonly after: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const answer = await real.workers[this.worker].recovery.replayTurn({ ...TURN, after: `${TURN_ID}:${this.after}` });
    if (this.after < model.lowerBound) expect(answer).toMatchObject({ ok: false, code: 'stale-cursor' });
    else if (this.after > model.latestSeq) expect(answer).toMatchObject({ ok: false, code: 'cursor-beyond-latest' });
    else {
      const seqs = Array.from({ length: model.latestSeq - this.after }, (_, index) => this.after + index + 1);
      expect(answer).toEqual({
        ok: true,
        value: {
          after: { turnId: TURN_ID, seq: this.after },
          lowerBound: model.lowerBound,
          latestSeq: model.latestSeq,
          frames: seqs.map(frame),
        },
      });
    }
  }
  toString = () => `replay(worker ${this.worker}, after ${this.after})`;
}

class Advance implements Command {
  constructor(readonly milliseconds: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    model.now += this.milliseconds;
    real.cluster.clock.elapsedMs = model.now;
    return Promise.resolve();
  }
  toString = () => `advance(${this.milliseconds} ms)`;
}

class Restart implements Command {
  check = () => true;
  async run(model: Model, real: Real) {
    real.cluster.database.restart();
    // The process died with its executions: their dispatches cannot write any more.
    for (const effectId of [...model.inFlight]) {
      real.cluster.fail(effectId);
      // A dead worker cannot read what was stored meanwhile: the outcome is unknown to it,
      // unless its own snapshot already held the stored result (a result never reverts).
      const answer = await real.pending.get(effectId);
      const effect = model.effects[effectId];
      if (effect.state === 'completed' && answer?.ok === true && answer.outcome === 'completed')
        expect(answer).toEqual({ ok: true, outcome: 'completed', reused: true, result: effect.result });
      else expect(answer).toMatchObject({ ok: true, outcome: 'needs-reconciliation', reason: 'dispatch-failed' });
    }
    real.pending.clear();
    model.inFlight.clear();
    real.workers = [real.cluster.worker(), real.cluster.worker()];
    real.held = [new Map(), new Map()];
    model.held = [new Map(), new Map()];
    agree(model, real);
  }
  toString = () => 'restart';
}

const worker = fc.constantFrom(0 as const, 1 as const);
const effect = fc.constantFrom(...EFFECTS);
const commands = [
  fc.constant(new Start()),
  fc.tuple(worker, effect).map(([index, effectId]) => new Claim(index, effectId)),
  fc.tuple(worker, effect).map(([index, effectId]) => new Claim(index, effectId)),
  fc.tuple(worker, effect).map(([index, effectId]) => new Dispatch(index, effectId)),
  fc.tuple(worker, effect).map(([index, effectId]) => new Dispatch(index, effectId)),
  fc.tuple(worker, effect).map(([index, effectId]) => new ClaimThenDispatch(index, effectId)),
  fc.tuple(effect, fc.boolean()).map(([effectId, fails]) => new Complete(effectId, fails)),
  fc.tuple(effect, fc.boolean()).map(([effectId, fails]) => new Complete(effectId, fails)),
  worker.map((index) => new Cancel(index)),
  fc.tuple(worker, effect).map(([index, effectId]) => new Reconcile(index, effectId)),
  fc.integer({ min: 1, max: 3 }).map((count) => new Append(count)),
  fc.integer({ min: 0, max: 8 }).map((after) => new Retain(after)),
  fc.tuple(worker, fc.integer({ min: 0, max: 10 })).map(([index, after]) => new Replay(index, after)),
  fc.constant(new Restart()),
  // Just inside, exactly at, and well past each lease, so both sides of each boundary come up.
  fc.constantFrom(1, ADMISSION_LEASE_MS - 1, ADMISSION_LEASE_MS, 3 * ADMISSION_LEASE_MS).map((milliseconds) => new Advance(milliseconds)),
  fc
    .constantFrom(1, ADMISSION_LEASE_MS - 1, ADMISSION_LEASE_MS, RUN_LEASE_MS - 1, RUN_LEASE_MS)
    .map((milliseconds) => new Advance(milliseconds)),
  fc.tuple(worker, fc.boolean()).map(([index, own]) => new Renew(index, own)),
  fc.tuple(worker, fc.boolean()).map(([index, own]) => new Interrupt(index, own)),
  // Mostly by another process past the lease: an interruption by the run itself ends the turn at once.
  fc.tuple(worker, fc.constant(false)).map(([index, own]) => new Interrupt(index, own)),
  fc.tuple(worker, fc.boolean()).map(([index, own]) => new Finish(index, own)),
];

describe('TurnRecovery against a reference model (issues 5, 12 and 27)', () => {
  it('every answer and every stored row match the model, over fresh workers, restarts, the admission lease and the run lease', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: 'large' }), async (sequence) => {
        const cluster = createCluster();
        const model: Model = {
          started: true,
          status: 'running',
          leaseExpiresAt: RUN_LEASE_MS,
          effects: { pay: { state: 'open', claim: 0 }, mail: { state: 'open', claim: 0 } },
          held: [new Map(), new Map()],
          inFlight: new Set(),
          now: 0,
          lowerBound: 0,
          latestSeq: 0,
        };
        const real: Real = { cluster, workers: [cluster.worker(), cluster.worker()], held: [new Map(), new Map()], pending: new Map() };
        expect(await real.workers[0].recovery.startTurn({ ...TURN, effectIds: [...EFFECTS], runId: RUN_ID })).toMatchObject({
          ok: true,
          outcome: 'started',
        });
        await fc.asyncModelRun(() => ({ model, real }), sequence);
        // Settle what is still running so no promise outlives the run.
        for (const effectId of model.inFlight) cluster.settle(effectId);
        await Promise.all(real.pending.values());
      }),
      { numRuns: runs(200) },
    );
  });
});
