/**
 * `@papercusp/chat-protocol-testkit/vitest`: the conformance suites (interaction store, turn recovery, event log,
 * conversation store) a host runs
 * in its own CI against its own store. Each check of the suite becomes one
 * vitest test; a failure lists what the store did wrong.
 */
import { describe, expect, it } from 'vitest';
import { chatEventLogChecks, type ChatEventLogConformanceOptions, type ChatEventLogHarness } from './chat-event-log-conformance.js';
import {
  conversationStoreChecks,
  type ConversationStoreConformanceOptions,
  type ConversationStoreHarness,
} from './conversation-store-conformance.js';
import {
  interactionStoreChecks,
  type ConformanceCheck,
  type InteractionStoreConformanceOptions,
  type InteractionStoreHarness,
} from './interaction-conformance.js';
import { turnRecoveryChecks, type TurnRecoveryConformanceOptions, type TurnRecoveryHarness } from './turn-recovery-conformance.js';

// One suite: every check as a test on a fresh harness; a failing check lists what the store did wrong.
function describeChecks<Harness>(
  title: string,
  checks: () => readonly ConformanceCheck<Harness>[],
  createHarness: () => Harness | Promise<Harness>,
  timeout: () => number | undefined,
): void {
  describe(title, () => {
    for (const check of checks()) {
      it(
        check.name,
        async () => {
          expect(await check.run(await createHarness())).toEqual([]);
        },
        timeout() ?? 300_000,
      );
    }
  });
}

/** Options of {@link describeInteractionStoreConformance}. */
export interface DescribeInteractionStoreConformanceOptions extends InteractionStoreConformanceOptions {
  /** Per-test timeout in milliseconds (default 300,000: race checks on a real database take a while). */
  readonly timeout?: number;
}

/**
 * Declares the interaction store conformance suite: every check of
 * `interactionStoreChecks` as a test, each on a harness from `createHarness`
 * (called once per test; connections of one harness share their data).
 *
 * ```ts
 * describeInteractionStoreConformance('postgres store', () => ({
 *   connect: () => createPgInteractionStore(pool),
 *   grant: (conversationId, caller, authority) => grants.set(conversationId, caller, authority),
 * }));
 * ```
 */
export function describeInteractionStoreConformance(
  name: string,
  createHarness: () => InteractionStoreHarness | Promise<InteractionStoreHarness>,
  options: DescribeInteractionStoreConformanceOptions = {},
): void {
  describeChecks(
    `interaction store conformance: ${name}`,
    () => interactionStoreChecks(options),
    createHarness,
    () => options.timeout,
  );
}

/** Options of {@link describeTurnRecoveryConformance}. */
export interface DescribeTurnRecoveryConformanceOptions extends TurnRecoveryConformanceOptions {
  /** Per-test timeout in milliseconds (default 300,000: race checks on a real database take a while). */
  readonly timeout?: number;
}

/**
 * Declares the turn recovery conformance suite: every check of
 * `turnRecoveryChecks` as a test, each on a harness from `createHarness`
 * (called once per test; adapters of one harness share their data). Each
 * check runs on turns of its own, so one database serves them all.
 *
 * ```ts
 * describeTurnRecoveryConformance('postgres turn store', () => ({
 *   adapter: ({ onAbort }) => createPgTurnAdapter(pool, { abort: onAbort }),
 *   grant: (conversationId, caller) => grants.set(conversationId, caller),
 * }));
 * ```
 */
export function describeTurnRecoveryConformance(
  name: string,
  createHarness: () => TurnRecoveryHarness | Promise<TurnRecoveryHarness>,
  options: DescribeTurnRecoveryConformanceOptions = {},
): void {
  describeChecks(
    `turn recovery conformance: ${name}`,
    () => turnRecoveryChecks(options),
    createHarness,
    () => options.timeout,
  );
}

/** Options of {@link describeChatEventLogConformance}. */
export interface DescribeChatEventLogConformanceOptions extends ChatEventLogConformanceOptions {
  /** Per-test timeout in milliseconds (default 300,000: race checks on a real database take a while). */
  readonly timeout?: number;
}

/**
 * Declares the event log conformance suite (DESIGN §9.3): every check of
 * `chatEventLogChecks` as a test, each on a harness from `createHarness`
 * (called once per test; connections of one harness share one log). Each
 * check runs on turns of its own, so one database serves them all.
 *
 * ```ts
 * describeChatEventLogConformance('postgres event log', () => ({
 *   connect: () => createPostgresChatStore(database, options).eventLog,
 * }));
 * ```
 */
export function describeChatEventLogConformance(
  name: string,
  createHarness: () => ChatEventLogHarness | Promise<ChatEventLogHarness>,
  options: DescribeChatEventLogConformanceOptions = {},
): void {
  describeChecks(
    `event log conformance: ${name}`,
    () => chatEventLogChecks(options),
    createHarness,
    () => options.timeout,
  );
}

/** Options of {@link describeConversationStoreConformance}. */
export interface DescribeConversationStoreConformanceOptions extends ConversationStoreConformanceOptions {
  /** Per-test timeout in milliseconds (default 300,000: race checks on a real database take a while). */
  readonly timeout?: number;
}

/**
 * Declares the conversation store conformance suite (recovery's
 * `ChatConversationStore`: `readConversationLog` and `authorizeConversation`):
 * every check of `conversationStoreChecks` as a test, each on a harness from
 * `createHarness` (called once per test; connections of one harness share
 * their data). Each check runs on conversations of its own, so one database
 * serves them all.
 *
 * ```ts
 * describeConversationStoreConformance('postgres store', () => ({
 *   connect: () => createPostgresChatStore(database, { schema, authorizeConversation }),
 *   grant: (conversationId, caller, granted) => grants.set(conversationId, caller, granted),
 * }));
 * ```
 */
export function describeConversationStoreConformance(
  name: string,
  createHarness: () => ConversationStoreHarness | Promise<ConversationStoreHarness>,
  options: DescribeConversationStoreConformanceOptions = {},
): void {
  describeChecks(
    `conversation store conformance: ${name}`,
    () => conversationStoreChecks(options),
    createHarness,
    () => options.timeout,
  );
}

export { chatEventLogChecks } from './chat-event-log-conformance.js';
export type { ChatEventLogConformanceOptions, ChatEventLogHarness } from './chat-event-log-conformance.js';
export { conversationStoreChecks } from './conversation-store-conformance.js';
export type {
  ConversationStoreConformanceOptions,
  ConversationStoreConnection,
  ConversationStoreHarness,
} from './conversation-store-conformance.js';
export { interactionStoreChecks } from './interaction-conformance.js';
export { turnRecoveryChecks } from './turn-recovery-conformance.js';
export type {
  TurnRecoveryConformanceOptions,
  TurnRecoveryHarness,
  TurnRecoveryHarnessAdapterOptions,
} from './turn-recovery-conformance.js';
export type { ConformanceCheck, InteractionStoreConformanceOptions, InteractionStoreHarness } from './interaction-conformance.js';
