/**
 * AG-UI interrupts as the cards a turn asks, and the cards' answers as the resume entries of the next run. An
 * interrupt that names a card the run carried (`CUSTOM "papercusp.event"`, which this package's encoder writes for a
 * v1 host behind AG-UI) asks that card; any other is asked as a prompt-only card made from the interrupt. It owns
 * that reading; the resume entry's own shape is `resume-entries.ts`'.
 */
import {
  isCardDataSchemaJson,
  isCleanText,
  isZonedTimestamp,
  type ChatAgentCard,
  type ChatAgentFeedback,
  type OpenCardSnapshotV1,
} from '@papercusp/chat-protocol-core';
import { isRecord, type Fields } from '../decoder/event-vocabulary.js';
import { resumeEntryFromCardResponse, type AgUiResumeEntry } from '../resume-entries.js';
import { boundedText } from './fit-event.js';

/** An interrupt the run finished with: its id and the card that asks the person for its answer. */
export interface AskedInterrupt {
  readonly interruptId: string;
  readonly card: ChatAgentCard;
}

/**
 * The interrupts of `event`, a `RUN_FINISHED` read as plain data, when its outcome is `interrupt` (else none), each
 * once, in order, with its card: the card `carried` holds under the interrupt's id, else one made from the interrupt.
 */
export function askedInterrupts(event: unknown, carried: ReadonlyMap<string, OpenCardSnapshotV1>): AskedInterrupt[] {
  const outcome = isRecord(event) ? event['outcome'] : undefined;
  if (!isRecord(outcome) || outcome['type'] !== 'interrupt' || !Array.isArray(outcome['interrupts'])) return [];
  const interrupts: unknown[] = outcome['interrupts'];
  const asked: AskedInterrupt[] = [];
  for (const interrupt of interrupts) {
    if (!isRecord(interrupt)) continue;
    const interruptId = interrupt['id'];
    if (typeof interruptId !== 'string' || asked.some((entry) => entry.interruptId === interruptId)) continue;
    const card = carried.get(interruptId);
    if (card === undefined) {
      asked.push({ interruptId, card: cardOfInterrupt(interrupt) });
    } else {
      const { correlationId: _correlationId, createdAt: _createdAt, ...rest } = card;
      asked.push({ interruptId, card: rest });
    }
  }
  return asked;
}

/** Whether the card can no longer be answered at `now` (epoch ms): AG-UI then wants the interrupt cancelled. */
export function hasExpired(card: ChatAgentCard, now: number): boolean {
  return card.expiresAt !== undefined && Date.parse(card.expiresAt) <= now;
}

/**
 * The resume entry answering `interruptId` with how its card closed: a submitted value is `resolved` with the value
 * as `payload`, a decline is `cancelled` with the decline carried (`resumeEntryFromCardResponse`), and a card
 * cancelled, expired or left without an answer is `cancelled`.
 */
export function resumeEntryOf(interruptId: string, feedback: ChatAgentFeedback): AgUiResumeEntry {
  if (feedback?.type === 'card-closed' && feedback.resolution === 'submitted' && feedback.value !== undefined) {
    return { interruptId, status: 'resolved', payload: feedback.value };
  }
  if (feedback?.type === 'card-closed' && feedback.resolution === 'declined') {
    return resumeEntryFromCardResponse({ action: 'decline', correlationId: interruptId });
  }
  return resumeEntryFromCardResponse({ action: 'cancel', correlationId: interruptId });
}

// A prompt-only card (answered { text }): the interrupt's message, else its reason, as the prompt; its response schema
// for renderers; its expiry when it is a zoned RFC 3339 time. AG-UI lets every interrupt be cancelled, so it may be declined.
function cardOfInterrupt(interrupt: Fields): ChatAgentCard {
  const prompt = [interrupt['message'], interrupt['reason']].find(
    (text): text is string => typeof text === 'string' && text.trim() !== '' && isCleanText(text),
  );
  const card: { -readonly [Key in keyof ChatAgentCard]: ChatAgentCard[Key] } = {
    prompt: prompt === undefined ? 'The agent is waiting for your answer.' : boundedText(prompt),
    allowDecline: true,
  };
  if (isCardDataSchemaJson(interrupt['responseSchema'])) card.dataSchemaJson = interrupt['responseSchema'];
  if (isZonedTimestamp(interrupt['expiresAt'])) card.expiresAt = interrupt['expiresAt'];
  return card;
}
