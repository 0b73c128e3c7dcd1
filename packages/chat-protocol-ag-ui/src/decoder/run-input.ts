/**
 * A run's request (`RUN_STARTED.input`) is not a v1 event, but its resume entries say how the cards it answers
 * closed: each becomes a `card_closed`, when it closes a card this stream left waiting (else the reducer would
 * refuse it: reported lost with its code). Everything else in the request, and each answer's value, is reported
 * lost. It owns that reading; the entry's own shape is `resume-entries.ts`'.
 */
import { refuse } from '@papercusp/chat-protocol-core/internal';
import type { AgUiLoss } from '../loss.js';
import { cardResponseFromResumeEntry } from '../resume-entries.js';
import { isRecord, type Fields } from './event-vocabulary.js';
import type { ReducerView } from './reducer-view.js';

// How a resume entry's card answer closed its card.
const RESOLUTIONS = { submit: 'submitted', cancel: 'cancelled', decline: 'declined' } as const;

/** The `card_closed` events of the run `runId`'s request, and what it could not carry. */
export function runInput(request: unknown, runId: string, view: ReducerView): { ok: true; events: Fields[]; lost: AgUiLoss[] } {
  const lost: AgUiLoss[] = [];
  const events: Fields[] = [];
  if (request === undefined) return { ok: true, events, lost };
  if (!isRecord(request)) return { ok: true, events, lost: [{ field: 'input', reason: "a run's request is not a v1 event" }] };
  for (const key of Object.keys(request)) {
    if (key !== 'resume') lost.push({ field: `input.${key}`, reason: "a run's request is not a v1 event" });
  }
  const resume = request['resume'];
  if (resume === undefined) return { ok: true, events, lost };
  if (!Array.isArray(resume))
    return { ok: true, events, lost: [...lost, { field: 'input.resume', reason: 'not a list of resume entries' }] };
  const entries: unknown[] = resume;
  const closing = new Set<string>();
  entries.forEach((entry, index) => {
    const answer = cardResponseFromResumeEntry(entry);
    if (!answer.ok) {
      lost.push({ field: `input.resume[${index}]`, reason: `not a card answer (${answer.code})` });
      return;
    }
    const { action, correlationId } = answer.value;
    const event = { type: 'card_closed', correlationId, resolution: RESOLUTIONS[action] };
    const placed = closing.has(correlationId) ? refuse('card-closed', 'answered twice') : view.refusal(runId, event);
    if (placed !== undefined) {
      lost.push({ field: `input.resume[${index}]`, reason: `it answers no card this stream left waiting (${placed.code})` });
      return;
    }
    closing.add(correlationId);
    events.push(event);
    if (action === 'submit')
      lost.push({ field: `input.resume[${index}].payload`, reason: 'card_closed says how the card closed, not the answer' });
    if (answer.value.action === 'decline' && answer.value.reason !== undefined) {
      lost.push({ field: `input.resume[${index}].metadata`, reason: 'card_closed carries no decline reason' });
    }
  });
  return { ok: true, events, lost };
}
