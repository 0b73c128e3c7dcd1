/**
 * The scripted agent's card tour: one card of each base kind core defines
 * (`CARD_KINDS`), asked in turn, then one sentence saying what was chosen on
 * each. It exists so a client (the demo, the page, a test) can exercise every
 * card control against a real host with no model.
 */
import type { CardKind } from '@papercusp/chat-protocol-core';
import type { ChatAgentCard, ChatAgentCompletion, ChatAgentFeedback, ChatAgentStep } from '../chat-agent.js';

/** One card of each base kind, in `CARD_KINDS` order (a test pins that the list covers them all). */
export const SCRIPTED_TOUR_CARDS: readonly (ChatAgentCard & { readonly presentation: { readonly kind: CardKind } })[] = Object.freeze([
  { prompt: 'Add a note for the ticket', presentation: { kind: 'text', placeholder: 'Your note', maxLength: 200 }, allowDecline: true },
  {
    prompt: 'How should we reach you?',
    presentation: {
      kind: 'radio',
      options: [
        { id: 'email', label: 'Email' },
        { id: 'phone', label: 'Phone' },
      ],
    },
    allowDecline: true,
  },
  {
    prompt: 'Which shipping speed?',
    presentation: {
      kind: 'select',
      options: [
        { id: 'standard', label: 'Standard' },
        { id: 'express', label: 'Express' },
      ],
    },
    allowDecline: true,
  },
  {
    prompt: 'What should we send you?',
    presentation: {
      kind: 'checkbox',
      options: [
        { id: 'receipt', label: 'The receipt' },
        { id: 'survey', label: 'A short survey' },
      ],
    },
    allowDecline: true,
  },
  { prompt: 'Keep the order open?', presentation: { kind: 'confirm' }, allowDecline: true },
  { prompt: 'When should we call?', presentation: { kind: 'date', min: '2026-01-01', max: '2027-12-31' }, allowDecline: true },
  { prompt: 'How was the service?', presentation: { kind: 'slider', min: 1, max: 5, step: 1, unit: 'stars' }, allowDecline: true },
]);

// What one closed card said, in words: the submitted value, or how it closed.
function describeAnswer(kind: CardKind, feedback: ChatAgentFeedback): string {
  if (feedback?.type !== 'card-closed') return 'no answer';
  if (feedback.resolution !== 'submitted') return feedback.resolution;
  const value = (feedback.value ?? {}) as Record<string, unknown>;
  switch (kind) {
    case 'text':
      return JSON.stringify(value['text']);
    case 'radio':
    case 'select':
      return String(value['optionId']);
    case 'checkbox':
      return Array.isArray(value['optionIds']) && value['optionIds'].length > 0 ? value['optionIds'].join('+') : 'nothing';
    case 'confirm':
      return value['confirmed'] === true ? 'yes' : 'no';
    case 'date':
      return String(value['date']);
    case 'slider':
      return String(value['value']);
  }
}

/**
 * The tour's steps. Guarantees: deterministic; one `card` step per entry of
 * {@link SCRIPTED_TOUR_CARDS}, each asked after the previous one closed; the
 * closing text is `You chose: <kind> <answer>; …`, in the deltas `stream` cuts.
 */
export async function* scriptedCardTurn(
  stream: (text: string) => AsyncGenerator<ChatAgentStep, void>,
): AsyncGenerator<ChatAgentStep, ChatAgentCompletion, ChatAgentFeedback> {
  yield { type: 'provenance', engine: 'scripted', model: 'scripted-cards-1' };
  yield* stream('One question of each kind. ');
  const answers: string[] = [];
  for (const card of SCRIPTED_TOUR_CARDS) {
    const feedback = yield { type: 'card', card };
    answers.push(`${card.presentation.kind} ${describeAnswer(card.presentation.kind, feedback)}`);
  }
  yield* stream(`You chose: ${answers.join('; ')}.`);
  return { stopReason: 'end_turn' };
}
