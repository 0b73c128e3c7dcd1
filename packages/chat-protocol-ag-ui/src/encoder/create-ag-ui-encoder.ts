/**
 * v1 envelopes → AG-UI 1.0 events. Stateful: one AG-UI run per v1 turn, and
 * the encoder opens and closes AG-UI's text, reasoning and tool-call brackets
 * around the v1 events. It never invents an outcome: fields AG-UI has no slot
 * for travel under `metadata.papercusp` (read back by this package's decoder)
 * or are reported in `lost`. It owns no ids: it reuses the v1 ones.
 */
import type { ChatEventEnvelope, ChatEventV1, OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import { AG_UI_CUSTOM_EVENT_NAME, AG_UI_METADATA_KEY, type AgUiEvent, type AgUiInterrupt, type AgUiRunOutcome } from '../ag-ui-event.js';
import type { AgUiLoss } from '../loss.js';

/** What {@link AgUiEncoder.encode} returns for one envelope. */
export interface AgUiEncodeResult {
  /** The AG-UI events, in order (none for a redelivered envelope). */
  readonly events: readonly AgUiEvent[];
  /** What the events could not carry. */
  readonly lost: readonly AgUiLoss[];
}

/** A stateful v1 → AG-UI encoder for one conversation's stream. */
export interface AgUiEncoder {
  /** Encodes one envelope; a redelivered one (same turn and seq) yields no events. */
  encode(envelope: ChatEventEnvelope): AgUiEncodeResult;
}

interface RunState {
  readonly turnId: string;
  text: string | undefined;
  reasoning: string | undefined;
  messages: number;
}

const ENVELOPE_IDENTITY_LOSS: readonly AgUiLoss[] = [
  { field: 'eventId', reason: 'AG-UI events carry no event id; the decoding host allocates one' },
  { field: 'seq', reason: 'AG-UI events carry no sequence number; the decoding host allocates one' },
];

/**
 * Creates an encoder from v1 envelopes to AG-UI 1.0 events (DESIGN §12).
 *
 * Guarantees: the first envelope of a turn opens a run (`RUN_STARTED`,
 * `threadId` = conversation id, `runId` = turn id); `done` closes it with
 * `RUN_FINISHED` (cancelled and waiting-for-a-card outcomes stated, the
 * awaited cards as interrupts) and `error` with `RUN_ERROR`; every text,
 * reasoning and tool bracket it opens is closed before the run ends; a turn
 * that has not ended when another turn's envelope comes is never reported
 * finished: its run is closed (AG-UI runs do not interleave) by a
 * `RUN_FINISHED` marked `metadata.papercusp.turnEnded: false`, which this
 * package's decoder reads as no end, and a later envelope of it opens its run
 * again; an envelope of a turn that ended yields nothing; an envelope
 * redelivered by a replay overlap yields nothing; inputs are never mutated;
 * every field not carried is listed in `lost`.
 */
export function createAgUiEncoder(): AgUiEncoder {
  const seen = new Set<string>();
  // Turns that reached done or error: AG-UI has nothing to say after their run.
  const ended = new Set<string>();
  // Turns whose run was closed before they ended, by turn id.
  const unended = new Map<string, RunState>();
  const cards = new Map<string, OpenCardSnapshotV1>();
  let run: RunState | undefined;

  function encode(envelope: ChatEventEnvelope): AgUiEncodeResult {
    const key = `${envelope.turnId}\n${envelope.seq}`;
    if (seen.has(key)) return { events: [], lost: [] };
    seen.add(key);
    const timestamp = Date.parse(envelope.occurredAt);
    const events: AgUiEvent[] = [];
    const lost: AgUiLoss[] = [...ENVELOPE_IDENTITY_LOSS];
    if (new Date(timestamp).toISOString() !== envelope.occurredAt) {
      lost.push({
        field: 'occurredAt',
        reason: 'AG-UI timestamps are epoch milliseconds: the offset and sub-millisecond digits are not carried',
      });
    }
    if (ended.has(envelope.turnId)) {
      return {
        events,
        lost: [...lost, { field: 'event', reason: 'the turn already ended; AG-UI has no event after RUN_FINISHED or RUN_ERROR' }],
      };
    }
    if (run === undefined || run.turnId !== envelope.turnId) {
      if (run !== undefined) {
        // A turn that has not ended yet: AG-UI runs do not interleave, so its run is closed, marked so that no
        // reader of this package takes it for an end (DESIGN §12: never a fabricated completion).
        closeBrackets(run, events, timestamp);
        unended.set(run.turnId, run);
        events.push({
          type: 'RUN_FINISHED',
          threadId: envelope.conversationId,
          runId: run.turnId,
          timestamp,
          metadata: { [AG_UI_METADATA_KEY]: { turnEnded: false } },
        });
        lost.push({
          field: 'turnId',
          reason:
            'the previous turn has not ended: its AG-UI run was closed marked metadata.papercusp.turnEnded false, which a generic AG-UI client reads as finished',
        });
      }
      // A turn that comes back continues its own message numbering: its AG-UI message ids stay unique.
      const resumed = unended.get(envelope.turnId);
      run = resumed ?? { turnId: envelope.turnId, text: undefined, reasoning: undefined, messages: 0 };
      events.push({ type: 'RUN_STARTED', threadId: envelope.conversationId, runId: envelope.turnId, timestamp });
    }
    encodeEvent(envelope, run, events, lost, timestamp);
    return { events, lost };
  }

  function encodeEvent(envelope: ChatEventEnvelope, current: RunState, events: AgUiEvent[], lost: AgUiLoss[], timestamp: number): void {
    const event: ChatEventV1 = envelope.event;
    switch (event.type) {
      case 'delta': {
        closeReasoning(current, events, timestamp);
        if (current.text === undefined) {
          current.text = `${current.turnId}.message.${++current.messages}`;
          events.push({ type: 'TEXT_MESSAGE_START', messageId: current.text, role: 'assistant', timestamp });
        }
        events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: current.text, delta: event.text, timestamp });
        return;
      }
      case 'reasoning': {
        closeText(current, events, timestamp);
        if (current.reasoning === undefined) {
          current.reasoning = `${current.turnId}.reasoning.${++current.messages}`;
          events.push({ type: 'REASONING_START', messageId: current.reasoning, timestamp });
          events.push({ type: 'REASONING_MESSAGE_START', messageId: current.reasoning, role: 'reasoning', timestamp });
        }
        events.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: current.reasoning, delta: event.text, timestamp });
        return;
      }
      case 'user_input': {
        closeBrackets(current, events, timestamp);
        const messageId = `${current.turnId}.user`;
        events.push({ type: 'TEXT_MESSAGE_START', messageId, role: 'user', timestamp });
        events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta: event.text, timestamp });
        events.push({ type: 'TEXT_MESSAGE_END', messageId, timestamp });
        if (event.source !== undefined)
          lost.push({ field: 'event.source', reason: 'AG-UI user messages say nothing of how the text was entered' });
        return;
      }
      case 'tool_call': {
        closeBrackets(current, events, timestamp);
        events.push({ type: 'TOOL_CALL_START', toolCallId: event.callId, toolCallName: event.name, timestamp });
        if (event.input !== undefined)
          events.push({ type: 'TOOL_CALL_ARGS', toolCallId: event.callId, delta: JSON.stringify(event.input), timestamp });
        events.push({ type: 'TOOL_CALL_END', toolCallId: event.callId, timestamp });
        return;
      }
      case 'tool_result': {
        closeBrackets(current, events, timestamp);
        const carried: Record<string, unknown> = { status: event.status };
        if (event.error !== undefined) carried['error'] = event.error;
        events.push({
          type: 'TOOL_CALL_RESULT',
          messageId: `${current.turnId}.result.${event.callId}`,
          toolCallId: event.callId,
          content: event.summary ?? '',
          role: 'tool',
          timestamp,
          metadata: { [AG_UI_METADATA_KEY]: carried },
        });
        if (event.summary === '')
          lost.push({ field: 'event.summary', reason: 'an empty AG-UI tool result content reads back as no summary' });
        if (event.blocks !== undefined)
          lost.push({
            field: 'event.blocks',
            reason: 'AG-UI tool results carry text content only; grounded blocks and their sources are not carried',
          });
        return;
      }
      case 'state': {
        closeBrackets(current, events, timestamp);
        events.push({
          type: 'STATE_SNAPSHOT',
          snapshot: event.snapshot,
          timestamp,
          metadata: { [AG_UI_METADATA_KEY]: { version: event.version } },
        });
        return;
      }
      case 'done': {
        closeBrackets(current, events, timestamp);
        endRun(current);
        const carried: Record<string, unknown> = { status: event.status };
        if (event.stopReason !== undefined) carried['stopReason'] = event.stopReason;
        const outcome = outcomeOf(event, cards);
        const usage = event.usage === undefined ? undefined : usageOf(event.usage, lost);
        events.push({
          type: 'RUN_FINISHED',
          threadId: envelope.conversationId,
          runId: current.turnId,
          timestamp,
          metadata: { [AG_UI_METADATA_KEY]: carried },
          ...(outcome === undefined ? {} : { outcome }),
          ...(usage === undefined ? {} : { usage: [usage] }),
        });
        return;
      }
      case 'error': {
        closeBrackets(current, events, timestamp);
        endRun(current);
        const carried: Record<string, unknown> = { retryable: event.retryable };
        if (event.retryAfterMs !== undefined) carried['retryAfterMs'] = event.retryAfterMs;
        events.push({
          type: 'RUN_ERROR',
          message: event.message,
          code: event.code,
          timestamp,
          metadata: { [AG_UI_METADATA_KEY]: carried },
        });
        return;
      }
      default: {
        // provenance, card, card_closed, navigate and product events: AG-UI has no
        // native event for them, so they travel whole in its extension event.
        closeBrackets(current, events, timestamp);
        if (event.type === 'card') cards.set(event.card.correlationId, event.card);
        events.push({ type: 'CUSTOM', name: AG_UI_CUSTOM_EVENT_NAME, value: event, timestamp });
      }
    }
  }

  function endRun(current: RunState): void {
    ended.add(current.turnId);
    unended.delete(current.turnId);
    run = undefined;
  }

  return { encode };
}

function outcomeOf(event: ChatEventV1 & { type: 'done' }, cards: ReadonlyMap<string, OpenCardSnapshotV1>): AgUiRunOutcome | undefined {
  if (event.awaiting !== undefined) return { type: 'interrupt', interrupts: event.awaiting.map((id) => interruptOf(id, cards.get(id))) };
  if (event.status === 'completed') return { type: 'success' };
  if (event.status === 'cancelled') return { type: 'cancelled' };
  // interrupted and needs-reconciliation have no AG-UI outcome: none is stated.
  return undefined;
}

function interruptOf(correlationId: string, card: OpenCardSnapshotV1 | undefined): AgUiInterrupt {
  if (card === undefined) return { id: correlationId, reason: 'papercusp.card' };
  return {
    id: correlationId,
    reason: 'papercusp.card',
    message: card.prompt,
    ...(card.expiresAt === undefined ? {} : { expiresAt: card.expiresAt }),
  };
}

function usageOf(usage: NonNullable<(ChatEventV1 & { type: 'done' })['usage']>, lost: AgUiLoss[]): Record<string, number> {
  const entry: Record<string, number> = {};
  if (usage.inputTokens !== undefined) entry['inputTokens'] = usage.inputTokens;
  if (usage.outputTokens !== undefined) entry['outputTokens'] = usage.outputTokens;
  if (usage.totalTokens !== undefined) entry['totalTokens'] = usage.totalTokens;
  if (usage.costUsd !== undefined) lost.push({ field: 'event.usage.costUsd', reason: 'AG-UI token usage has no cost' });
  return entry;
}

function closeText(run: RunState, events: AgUiEvent[], timestamp: number): void {
  if (run.text === undefined) return;
  events.push({ type: 'TEXT_MESSAGE_END', messageId: run.text, timestamp });
  run.text = undefined;
}

function closeReasoning(run: RunState, events: AgUiEvent[], timestamp: number): void {
  if (run.reasoning === undefined) return;
  events.push({ type: 'REASONING_MESSAGE_END', messageId: run.reasoning, timestamp });
  events.push({ type: 'REASONING_END', messageId: run.reasoning, timestamp });
  run.reasoning = undefined;
}

function closeBrackets(run: RunState, events: AgUiEvent[], timestamp: number): void {
  closeText(run, events, timestamp);
  closeReasoning(run, events, timestamp);
}
