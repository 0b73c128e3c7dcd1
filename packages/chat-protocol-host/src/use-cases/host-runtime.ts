/**
 * What the host's use cases run on, built once per `createChatHost`: the
 * stores, `TurnRecovery` and `InteractionResolver` over them, and this
 * process's state (the runs and effects it holds, card wakeups, the stream
 * limit) with the settings the options gave. It owns that wiring only: what
 * each operation does is its use case's, how it is asked over HTTP the routes'.
 */
import { LIGHTWEIGHT_CHAT_CAPABILITIES, type OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import { DEFAULT_RUN_LEASE_MS, TurnRecovery } from '@papercusp/chat-protocol-recovery';
import type { ChatAgent } from '../chat-agent.js';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { createEventSink, type ChatHostEventSink } from '../chat-host-event.js';
import type { ChatHostOptions, ChatHostStore } from '../create-chat-host.js';
import { createCardWakeups, type CardWakeups } from '../run/card-wakeups.js';
import { createHostTracing, type HostTracing } from '../run/turn-spans.js';
import type { RunStop } from '../run/watch-turn-run.js';
import { DEFAULT_MAX_HISTORY_TURNS } from './agent-history.js';
import { createStreamLimit, type StreamLimit } from './stream-limit.js';

/** A turn run this process holds. */
interface HostRun {
  /** The run's id, which owns the turn's record (§6 rule 12). */
  readonly runId: string;
  /** Who started the turn: the authority the run acts under. */
  readonly caller: ChatHostCaller;
  readonly conversationId: string;
  /** Stops the run: cancelled, it writes the turn's `done { status: 'cancelled' }`; interrupted, nothing more. */
  readonly stop: (stop: RunStop) => void;
  /** Settles once the run ended (never rejects). */
  readonly ended: Promise<void>;
}

/** Where the host stands in its drain (§11.2). */
interface HostLifecycle {
  /** Set once the drain began: new turns are refused. */
  draining: boolean;
  /** Aborted once the drain gave up this process's runs: open streams end with a `retry:` hint, new ones are refused. */
  readonly streamsEnd: AbortController;
  /** The event streams this process has open: each one's turn, and a promise settled when it ended. */
  readonly openStreams: Set<{ readonly turnId: string; readonly ended: Promise<void> }>;
}

/** The host's runtime: see the module comment. */
export interface HostRuntime {
  readonly store: ChatHostStore;
  readonly agent: ChatAgent;
  readonly recovery: TurnRecovery<unknown, ChatHostCaller>;
  readonly resolver: InteractionResolver<ChatHostCaller, OpenCardSnapshotV1>;
  /** The turn runs this process holds, by turn id, so a cancellation or an interruption reaches them at once. */
  readonly runs: Map<string, HostRun>;
  /** The effects this process runs, by `<turnId>/<effectId>`, so a cancellation aborts them. */
  readonly effects: Map<string, AbortController>;
  readonly cardWakeups: CardWakeups;
  readonly lifecycle: HostLifecycle;
  readonly streams: StreamLimit;
  readonly clock: () => string;
  /** The caller's current right to the conversation: `false` for a refusal or a store that throws. Never rejects. */
  readonly authorized: (caller: ChatHostCaller, conversationId: string) => Promise<boolean>;
  readonly claimConversation: ChatHostOptions['claimConversation'];
  readonly cardLifetimeMs: number;
  readonly cancelPollMs: number;
  /** Recovery's run lease (§6 rule 12): a run renews it every third of it. */
  readonly runLeaseMs: number;
  readonly abandonedTurnGraceMs: number;
  readonly heartbeatMs: number | undefined;
  readonly stateBounds: { readonly maxTurns?: number; readonly maxFrames?: number };
  /** The most history turns a run's agent is given. */
  readonly maxHistoryTurns: number;
  /** The host's events, delivered to `onEvent` (never throws). */
  readonly emit: ChatHostEventSink;
  /** The host's OpenTelemetry tracing (`openTelemetry`), `undefined` without it. */
  readonly tracing: HostTracing | undefined;
}

const FULL_CAPABILITIES = {
  ...LIGHTWEIGHT_CHAT_CAPABILITIES,
  connectionReplay: true,
  persistedHistory: true,
  persistedDecisions: true,
  completedToolCheckpoints: true,
  interruptedTurnRecovery: true,
} as const;

/** Builds the runtime from the host's options, with their defaults. */
export function createHostRuntime(options: ChatHostOptions): HostRuntime {
  const { store, agent } = options;
  const clock = options.clock ?? (() => new Date().toISOString());
  const authorized = async (caller: ChatHostCaller, conversationId: string): Promise<boolean> => {
    try {
      return (await store.authorizeConversation({ caller, conversationId })) === true;
    } catch {
      return false;
    }
  };
  const effects = new Map<string, AbortController>();
  const runLeaseMs = options.runLeaseMs ?? DEFAULT_RUN_LEASE_MS;
  const recovery = new TurnRecovery<unknown, ChatHostCaller>(
    {
      capabilities: FULL_CAPABILITIES,
      authorize: ({ caller, conversationId }) => authorized(caller, conversationId),
      store: store.turnStore,
      replayWindow: (request) => store.eventLog.replayWindow(request),
      abort: ({ turnId, effectIds }) => {
        for (const effectId of effectIds) effects.get(`${turnId}/${effectId}`)?.abort();
      },
    },
    { clock, runLeaseMs, ...(options.admissionLeaseMs === undefined ? {} : { admissionLeaseMs: options.admissionLeaseMs }) },
  );
  const resolver = new InteractionResolver<ChatHostCaller, OpenCardSnapshotV1>({
    store: store.interactionStore,
    // The resolver checks the value against the card's kind (options, bounds, allowDecline): the host adds no schema.
    validate: ({ value }) => ({ value }),
    clock,
  });
  return {
    store,
    agent,
    recovery,
    resolver,
    runs: new Map(),
    effects,
    cardWakeups: createCardWakeups(options.cardPollMs ?? 1000),
    lifecycle: { draining: false, streamsEnd: new AbortController(), openStreams: new Set() },
    streams: createStreamLimit(options.maxStreamsPerCaller ?? 8),
    clock,
    authorized,
    claimConversation: options.claimConversation,
    cardLifetimeMs: options.cardLifetimeMs ?? 3_600_000,
    cancelPollMs: options.cancelPollMs ?? 500,
    runLeaseMs,
    abandonedTurnGraceMs: options.abandonedTurnGraceMs ?? 5000,
    heartbeatMs: options.heartbeatMs,
    stateBounds: {
      ...(options.maxStateTurns === undefined ? {} : { maxTurns: options.maxStateTurns }),
      ...(options.maxStateFrames === undefined ? {} : { maxFrames: options.maxStateFrames }),
    },
    maxHistoryTurns: options.maxHistoryTurns ?? DEFAULT_MAX_HISTORY_TURNS,
    emit: createEventSink(options.onEvent),
    tracing: createHostTracing(options.openTelemetry),
  };
}
