/**
 * One `card` step of a run: the card opened durably through
 * `InteractionResolver` (the authority on answers), shown as a `card` frame,
 * then waited on until its terminal record, closed as `card_closed`. It owns
 * that wait; the frames' seqs are the run's.
 */
import { promptOnlyCardKind, type ChatEventV1, type OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import type { ChatAgentCard, ChatAgentFeedback, ChatAgentTurn } from '../chat-agent.js';
import type { ChatHostCaller } from '../chat-host-caller.js';
import type { CardWakeup } from './card-wakeups.js';
import { isInterrupted } from './run-interruption.js';
import type { CardObservation, TurnObserver } from './turn-observer.js';

/** The schema every host card is opened with: the host validates values by the card's own kind. */
const HOST_CARD_SCHEMA = Object.freeze({ id: 'host-card', revision: 1 });

/** What a card step needs of its run. */
export interface CardStepRun {
  readonly turn: ChatAgentTurn;
  readonly caller: ChatHostCaller;
  readonly resolver: InteractionResolver<ChatHostCaller, OpenCardSnapshotV1>;
  readonly clock: () => string;
  /** The run's signal: aborted when the turn's cancellation committed. */
  readonly signal: AbortSignal;
  /** Arms a wait that settles when a card answer may have been stored (or after a poll interval); armed before each read of the card. */
  readonly armCardWait: (correlationId: string, signal: AbortSignal) => CardWakeup;
  /** How long a card stays open, in milliseconds. */
  readonly cardLifetimeMs: number;
  /** The run's observer: the card's wait and its store calls. */
  readonly observer: TurnObserver;
}

/** The correlation id of the turn's card with `ordinal` (1, 2, … within the turn): `card_<turnId>_<ordinal>`. */
export function cardCorrelationId(turnId: string, ordinal: number): string {
  return `card_${turnId}_${ordinal}`;
}

// The host's turn ids are `turn_` and 32 hex digits (host-turn-id.ts).
const HOST_CARD = /^card_(turn_[0-9a-f]{32})_[1-9][0-9]*$/;

/** The turn whose run asked the card `correlationId` ({@link cardCorrelationId}), `null` for a correlation id the host never mints. */
export function turnIdOfCard(correlationId: string): string | null {
  return HOST_CARD.exec(correlationId)?.[1] ?? null;
}

/**
 * Asks the card as `correlationId` and waits for its answer. Guarantees: the card is shown only once opened
 * durably (a card that cannot be opened ends the turn with `error { code: 'card-not-opened' }`); the feedback is
 * the resolution (and value) the resolver's record holds; a cancellation cancels the card, closes it `cancelled`
 * and answers `cancelled`; an interruption answers `stopped` and leaves the card to the interrupter's tail; `stopped`
 * when the log refused a frame. Never rejects while the resolver keeps its contract.
 */
export async function askCard(
  run: CardStepRun,
  agentCard: ChatAgentCard,
  correlationId: string,
  append: (event: ChatEventV1) => Promise<'appended' | 'stopped'>,
): Promise<ChatAgentFeedback | 'stopped' | 'cancelled'> {
  const observation = run.observer.card(correlationId);
  try {
    return await waitForCard(run, observation, agentCard, correlationId, append);
  } finally {
    observation.close();
  }
}

async function waitForCard(
  run: CardStepRun,
  observation: CardObservation,
  agentCard: ChatAgentCard,
  correlationId: string,
  append: (event: ChatEventV1) => Promise<'appended' | 'stopped'>,
): Promise<ChatAgentFeedback | 'stopped' | 'cancelled'> {
  const { turn, caller, resolver, signal, observer } = run;
  const createdAt = run.clock();
  const expiresAt = new Date(Date.parse(createdAt) + run.cardLifetimeMs).toISOString();
  const card = { ...agentCard, correlationId, createdAt } as OpenCardSnapshotV1;
  const opened = await observer.store('open-card', () =>
    resolver.open({
      caller,
      card,
      schema: HOST_CARD_SCHEMA,
      expiresAt,
      scope: {
        conversationId: turn.conversationId,
        principalId: caller.principalId,
        tenantId: caller.tenantId,
        customerId: caller.customerId,
        publicOwnerId: caller.publicOwnerId,
      },
      at: createdAt,
    }),
  );
  if (!opened.ok || opened.outcome !== 'opened') {
    const code = opened.ok ? opened.outcome : opened.code;
    await append({ type: 'error', code: 'card-not-opened', message: `the card could not be opened: ${code}`, retryable: false });
    return 'stopped';
  }
  const shown = opened.record.card;
  if ((await append({ type: 'card', card: shown })) === 'stopped') return 'stopped';
  observation.asked(shown.presentation?.kind ?? promptOnlyCardKind(shown));
  const request = { caller, conversationId: turn.conversationId, correlationId };
  for (;;) {
    if (signal.aborted) {
      // An interrupted run leaves the card to the interrupter, which closes it with the turn's tail.
      if (isInterrupted(signal)) return 'stopped';
      await observer.store('cancel-card', () => resolver.cancel({ ...request, at: run.clock() }));
      if ((await append({ type: 'card_closed', correlationId, resolution: 'cancelled' })) === 'stopped') return 'stopped';
      observation.answered('cancelled');
      return 'cancelled';
    }
    // Armed before the read: an answer committing between the read and the wait still wakes this run.
    const wakeup = run.armCardWait(correlationId, signal);
    const read = await observer.store('read-card', () => resolver.read({ ...request, at: run.clock() }));
    if (read.ok && read.record.status !== 'pending') {
      wakeup.release();
      const resolution = read.record.status;
      if ((await append({ type: 'card_closed', correlationId, resolution })) === 'stopped') return 'stopped';
      observation.answered(resolution);
      return read.record.value === undefined
        ? { type: 'card-closed', resolution }
        : { type: 'card-closed', resolution, value: read.record.value };
    }
    if (read.ok && read.expired) {
      wakeup.release();
      await observer.store('expire-card', () => resolver.expire({ ...request, at: run.clock() }));
      continue;
    }
    await wakeup.woken;
  }
}
