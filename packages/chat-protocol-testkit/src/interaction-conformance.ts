/**
 * The conformance checks a host's interaction store must pass: the `transact`
 * contract of DESIGN §7 exercised through `InteractionResolver` by fresh
 * workers, including races explored with fast-check's scheduler. Plain async
 * checks that return their failures, so the testkit can prove they catch
 * broken stores; `describeInteractionStoreConformance` runs them under vitest.
 */
import type { OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import {
  InteractionResolver,
  type InteractionAuthority,
  type InteractionStore,
  type InteractionValidator,
} from '@papercusp/chat-protocol-interactions';
import type { Scheduler } from 'fast-check';
import { scheduleInteractionStore } from './scheduled-interaction-store.js';
import { checkRaces } from './scheduled-transit.js';

/** What a host hands the checks: connections to its store and a way to set authority. */
export interface InteractionStoreHarness {
  /** A new connection to the host's store: one fresh worker. Every connection sees the same data. */
  connect(): InteractionStore<OpenCardSnapshotV1, string>;
  /** Makes `caller`'s current authority in `conversationId` this one (`null`: none). The store must read it on every call. */
  grant(conversationId: string, caller: string, authority: InteractionAuthority | null): void | Promise<void>;
}

/** Options of the interaction store checks. */
export interface InteractionStoreConformanceOptions {
  /** Interleavings per race check (default 200; the testkit's own fake store runs 1,000). */
  readonly numRuns?: number;
}

/** One check: its name, and a run that resolves with its failures (empty: it passed). */
export interface ConformanceCheck<Harness> {
  readonly name: string;
  run(harness: Harness): Promise<readonly string[]>;
}

const OPENED_AT = '2026-11-30T09:00:00Z';
const ANSWERED_AT = '2026-11-30T09:10:00Z';
const EXPIRES_AT = '2026-11-30T09:30:00Z';
const OWNER = 'conformance-owner';
const AUTHORITY: InteractionAuthority = {
  principalId: 'user_conformance',
  tenantId: 'tenant_conformance',
  customerId: null,
  publicOwnerId: null,
};

// Refund or replace, as a hand-written Standard Schema: the checks bring no validator library.
const validate: InteractionValidator<OpenCardSnapshotV1> = ({ value }) => {
  const optionId = typeof value === 'object' && value !== null ? (value as { readonly optionId?: unknown }).optionId : undefined;
  return optionId === 'refund' || optionId === 'replace'
    ? { value: { optionId } }
    : { issues: [{ message: 'not offered', path: ['optionId'] }] };
};

// Ids unique to this process, so a host database kept between CI runs never holds them already.
const RUN_ID = Math.random().toString(36).slice(2, 10);
let cards = 0;

/** A card of its own per run, so checks never meet each other's records in a shared database. */
async function openCard(
  harness: InteractionStoreHarness,
): Promise<{ readonly conversationId: string; readonly correlationId: string; readonly failure?: string }> {
  cards += 1;
  const conversationId = `conv_conformance_${RUN_ID}_${cards}`;
  const correlationId = `card_conformance_${RUN_ID}_${cards}`;
  await harness.grant(conversationId, OWNER, AUTHORITY);
  const opened = await resolverOn(harness.connect()).open({
    caller: OWNER,
    card: {
      correlationId,
      createdAt: OPENED_AT,
      prompt: 'Refund or replacement?',
      presentation: {
        kind: 'radio',
        options: [
          { id: 'refund', label: 'Refund' },
          { id: 'replace', label: 'Replacement' },
        ],
      },
    },
    schema: { id: 'refund-choice', revision: 1 },
    expiresAt: EXPIRES_AT,
    scope: { conversationId, ...AUTHORITY },
    at: OPENED_AT,
  });
  return opened.ok && opened.outcome === 'opened' && !opened.replayed
    ? { conversationId, correlationId }
    : { conversationId, correlationId, failure: `opening a card answered ${JSON.stringify(opened)}` };
}

function resolverOn(store: InteractionStore<OpenCardSnapshotV1, string>): InteractionResolver<string> {
  return new InteractionResolver<string>({ store, validate });
}

/** A worker whose store calls leave and answer when the scheduler says. */
function scheduledResolver(harness: InteractionStoreHarness, scheduler: Scheduler): InteractionResolver<string> {
  return resolverOn(scheduleInteractionStore(harness.connect(), scheduler));
}

interface Answer {
  readonly ok: boolean;
  readonly outcome?: string;
  readonly code?: string;
  readonly record?: unknown;
}

/** The invariants over one race: one terminal record, every success saw it, every loser got a typed refusal. */
async function raceFailures(
  harness: InteractionStoreHarness,
  key: { conversationId: string; correlationId: string },
  answers: readonly Answer[],
): Promise<string[]> {
  const failures: string[] = [];
  const stored = await resolverOn(harness.connect()).read({ caller: OWNER, ...key, at: ANSWERED_AT });
  if (!stored.ok) return [`the card cannot be read after the race: ${stored.code}`];
  const winners = answers.filter((answer) => answer.ok && answer.outcome !== 'needs-reconciliation');
  if (winners.length !== 1) failures.push(`${winners.length} callers closed the card; exactly one may`);
  for (const winner of winners) {
    if (JSON.stringify(winner.record) !== JSON.stringify(stored.record))
      failures.push('a caller was told an outcome the store does not hold');
  }
  for (const answer of answers) {
    if (!answer.ok && answer.code !== 'already-closed') failures.push(`a loser got ${String(answer.code)}, not already-closed`);
  }
  if (stored.record.status === 'pending') failures.push('the card is still pending after both answers');
  return failures;
}

/** A race check: two closing calls from fresh scheduled workers on one card. */
function raceCheck(
  name: string,
  numRuns: number,
  race: (worker: () => InteractionResolver<string>, key: { conversationId: string; correlationId: string }) => readonly Promise<Answer>[],
): ConformanceCheck<InteractionStoreHarness> {
  return {
    name,
    run: (harness) =>
      checkRaces(numRuns, async ({ scheduler, act }) => {
        const key = await openCard(harness);
        if (key.failure !== undefined) return [key.failure];
        const answers = await scheduler.waitFor(Promise.all(race(() => scheduledResolver(harness, scheduler), key)), act);
        return raceFailures(harness, key, answers);
      }),
  };
}

/**
 * The checks, in order. Each uses cards of its own, so one database can serve
 * them all; run them with `describeInteractionStoreConformance` from
 * `@papercusp/chat-protocol-testkit/vitest`.
 */
export function interactionStoreChecks(
  options: InteractionStoreConformanceOptions = {},
): readonly ConformanceCheck<InteractionStoreHarness>[] {
  const numRuns = options.numRuns ?? 200;
  const answer = (optionId: string) => ({ caller: OWNER, value: { optionId }, at: ANSWERED_AT });
  return [
    {
      name: 'a card opened by one worker is answered by another and replayed to a third',
      async run(harness) {
        const key = await openCard(harness);
        if (key.failure !== undefined) return [key.failure];
        const first = await resolverOn(harness.connect()).submit({ ...key, ...answer('refund') });
        const again = await resolverOn(harness.connect()).submit({ ...key, ...answer('refund') });
        const failures: string[] = [];
        if (!first.ok || first.outcome !== 'submitted' || first.replayed) failures.push(`the answer gave ${JSON.stringify(first)}`);
        if (!again.ok || again.outcome !== 'submitted' || !again.replayed)
          failures.push(`the same answer retried gave ${JSON.stringify(again)}`);
        if (
          first.ok &&
          again.ok &&
          'record' in first &&
          'record' in again &&
          JSON.stringify(first.record) !== JSON.stringify(again.record)
        ) {
          failures.push('the retry saw another record');
        }
        return failures;
      },
    },
    {
      name: 'the store resolves the caller’s authority on every call: a revoked caller gets not-found',
      async run(harness) {
        const key = await openCard(harness);
        if (key.failure !== undefined) return [key.failure];
        const resolver = resolverOn(harness.connect());
        await harness.grant(key.conversationId, OWNER, null);
        const revoked = await resolver.submit({ ...key, ...answer('refund') });
        return revoked.ok || revoked.code !== 'not-found' ? [`a revoked caller's answer gave ${JSON.stringify(revoked)}`] : [];
      },
    },
    {
      name: 'transact calls decide exactly once and resolves with its result; a decision without next writes nothing',
      async run(harness) {
        const key = await openCard(harness);
        if (key.failure !== undefined) return [key.failure];
        const store = harness.connect();
        let calls = 0;
        let revision: unknown;
        const result = await store.transact({ ...key, caller: OWNER }, (snapshot) => {
          calls += 1;
          revision = (snapshot.record as { readonly revision?: unknown } | null)?.revision;
          return { result: 'read-only' };
        });
        const failures: string[] = [];
        if (calls !== 1) failures.push(`decide was called ${calls} times`);
        if (result !== 'read-only') failures.push(`transact resolved with ${JSON.stringify(result)}, not the decision's result`);
        if (revision !== 1) failures.push(`decide saw revision ${JSON.stringify(revision)}, not 1`);
        const after = await store.read({ ...key, caller: OWNER });
        if ((after.record as { readonly revision?: unknown } | null)?.revision !== 1)
          failures.push('a read-only decision changed the record');
        return failures;
      },
    },
    {
      name: 'every write advances the revision by one, and a closed card is never written again',
      async run(harness) {
        const key = await openCard(harness);
        if (key.failure !== undefined) return [key.failure];
        await resolverOn(harness.connect()).submit({ ...key, ...answer('refund') });
        await resolverOn(harness.connect()).cancel({ ...key, caller: OWNER, at: ANSWERED_AT });
        const stored = await resolverOn(harness.connect()).read({ ...key, caller: OWNER, at: ANSWERED_AT });
        return stored.ok && stored.record.revision === 2 && stored.record.status === 'submitted'
          ? []
          : [`after open, answer and a late cancel the card reads ${JSON.stringify(stored)}`];
      },
    },
    {
      name: "a missing card gets a typed answer, never a throw: the store's read and transact (decide once, with no record), and every resolver operation over it (not-found)",
      async run(harness) {
        const key = await openCard(harness);
        if (key.failure !== undefined) return [key.failure];
        const missing = { ...key, caller: OWNER, correlationId: `${key.correlationId}_missing` };
        const store = harness.connect();
        const failures: string[] = [];
        const attempt = async (
          what: string,
          call: () => Promise<unknown>,
          holds: (answer: unknown) => boolean,
          expected: string,
        ): Promise<void> => {
          try {
            const answer = await call();
            if (!holds(answer)) failures.push(`${what} answered ${JSON.stringify(answer)}, not ${expected}`);
          } catch (error) {
            failures.push(
              `${what} threw (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}); it must answer ${expected}`,
            );
          }
        };
        const recordOf = (answer: unknown): unknown =>
          typeof answer === 'object' && answer !== null ? (answer as { readonly record?: unknown }).record : undefined;
        await attempt(
          'read of a missing card',
          () => store.read(missing),
          (answer) => recordOf(answer) === null,
          'a snapshot with record null',
        );
        const seen: unknown[] = [];
        await attempt(
          'transact of a missing card with a read-only decision',
          () =>
            store.transact(missing, (snapshot) => {
              seen.push(snapshot.record);
              return { result: 'nothing-to-do' };
            }),
          (answer) => answer === 'nothing-to-do',
          "the decision's result",
        );
        if (JSON.stringify(seen) !== '[null]')
          failures.push(`decide saw ${JSON.stringify(seen)} for a missing card, not one call with record null`);
        const resolver = resolverOn(harness.connect());
        const refused = (answer: unknown): boolean =>
          typeof answer === 'object' && answer !== null && (answer as { readonly code?: unknown }).code === 'not-found';
        await attempt('submit to a missing card', () => resolver.submit({ ...missing, ...answer('refund') }), refused, 'not-found');
        await attempt('cancel of a missing card', () => resolver.cancel({ ...missing, at: ANSWERED_AT }), refused, 'not-found');
        await attempt(
          'read through the resolver of a missing card',
          () => resolver.read({ ...missing, at: ANSWERED_AT }),
          refused,
          'not-found',
        );
        return failures;
      },
    },
    raceCheck('two workers answering one card at once: exactly one terminal record, every success saw it', numRuns, (worker, key) => [
      worker().submit({ ...key, ...answer('refund') }),
      worker().submit({ ...key, ...answer('replace') }),
    ]),
    raceCheck('an answer racing cancellation: exactly one of them closes the card', numRuns, (worker, key) => [
      worker().submit({ ...key, ...answer('refund') }),
      worker().cancel({ ...key, caller: OWNER, at: ANSWERED_AT }),
    ]),
  ];
}
