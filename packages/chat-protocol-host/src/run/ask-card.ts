/**
 * One `card` step of a run: the card opened durably through
 * `InteractionResolver` (the authority on answers), shown as a `card` frame,
 * then waited on until its terminal record, closed as `card_closed`. It owns
 * that wait; the frames' seqs are the run's.
 */
import type { ChatEventV1, OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import type { ChatAgentCard, ChatAgentFeedback, ChatAgentTurn } from '../chat-agent.js';
import type { ChatHostCaller } from '../chat-host-caller.js';
import type { ChatHostEventSink } from '../chat-host-event.js';
import type { CardWakeup } from './card-wakeups.js';

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
  readonly emit: ChatHostEventSink;
}

/**
 * Asks the card as `correlationId` and waits for its answer. Guarantees: the card is shown only once opened
 * durably (a card that cannot be opened ends the turn with `error { code: 'card-not-opened' }`); the feedback is
 * the resolution (and value) the resolver's record holds; a cancellation cancels the card, closes it `cancelled`
 * and answers `cancelled`; `stopped` when the log refused a frame. Never rejects while the resolver keeps its contract.
 */
export async function askCard(
  run: CardStepRun,
  agentCard: ChatAgentCard,
  correlationId: string,
  append: (event: ChatEventV1) => Promise<'appended' | 'stopped'>,
): Promise<ChatAgentFeedback | 'stopped' | 'cancelled'> {
  const { turn, caller, resolver, signal } = run;
  const ids = { conversationId: turn.conversationId, turnId: turn.turnId };
  const createdAt = run.clock();
  const expiresAt = new Date(Date.parse(createdAt) + run.cardLifetimeMs).toISOString();
  const card = { ...agentCard, correlationId, createdAt } as OpenCardSnapshotV1;
  const opened = await resolver.open({
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
  });
  if (!opened.ok || opened.outcome !== 'opened') {
    const code = opened.ok ? opened.outcome : opened.code;
    if (code === 'store-unavailable') run.emit({ type: 'store-unavailable', ...ids, operation: 'open-card' });
    await append({ type: 'error', code: 'card-not-opened', message: `the card could not be opened: ${code}`, retryable: false });
    return 'stopped';
  }
  if ((await append({ type: 'card', card: opened.record.card })) === 'stopped') return 'stopped';
  run.emit({ type: 'card-asked', ...ids, correlationId });
  const request = { caller, conversationId: turn.conversationId, correlationId };
  for (;;) {
    if (signal.aborted) {
      await resolver.cancel({ ...request, at: run.clock() });
      if ((await append({ type: 'card_closed', correlationId, resolution: 'cancelled' })) === 'stopped') return 'stopped';
      run.emit({ type: 'card-answered', ...ids, correlationId, resolution: 'cancelled' });
      return 'cancelled';
    }
    // Armed before the read: an answer committing between the read and the wait still wakes this run.
    const wakeup = run.armCardWait(correlationId, signal);
    const read = await resolver.read({ ...request, at: run.clock() });
    if (read.ok && read.record.status !== 'pending') {
      wakeup.release();
      const resolution = read.record.status;
      if ((await append({ type: 'card_closed', correlationId, resolution })) === 'stopped') return 'stopped';
      run.emit({ type: 'card-answered', ...ids, correlationId, resolution });
      return read.record.value === undefined
        ? { type: 'card-closed', resolution }
        : { type: 'card-closed', resolution, value: read.record.value };
    }
    if (!read.ok && read.code === 'store-unavailable') run.emit({ type: 'store-unavailable', ...ids, operation: 'read-card' });
    if (read.ok && read.expired) {
      wakeup.release();
      await resolver.expire({ ...request, at: run.clock() });
      continue;
    }
    await wakeup.woken;
  }
}
