/**
 * One turn on the page, drawn from the reducer's `ChatTurnState` (core §3.5)
 * of `GET /state` and again each time `followChatTurn` applies a frame: the person's message, the
 * status, reasoning, the streamed text with its blocks, tool activity (each
 * call, its input and result) and the cards. It reads the state only; what
 * the person does (answering a card) goes out through `answer`.
 */
import type { ChatTurnState } from '@papercusp/chat-protocol-core';
import { element } from './dom.js';
import { createCardView, type AnswerCard, type CardView } from './render-card.js';
import { createTurnTextView } from './render-turn-text.js';

/** A turn's view. */
export interface TurnView {
  readonly element: HTMLElement;
  update(turn: ChatTurnState): void;
  /** Shows a problem the state does not hold (a refused start, a stream that gave up). */
  showProblem(message: string): void;
}

const STATUS_TEXT: Readonly<Record<ChatTurnState['status'], string>> = {
  running: 'Responding…',
  completed: 'Completed',
  cancelled: 'Cancelled',
  interrupted: 'Interrupted',
  'needs-reconciliation': 'Needs reconciliation',
  failed: 'Failed',
};

function toolRow(call: ChatTurnState['toolCalls'][number]): HTMLElement {
  const result = call.result;
  const status = result?.status ?? 'running';
  return element('li', { 'data-call-id': call.callId, 'data-status': status }, [
    element('code', {}, [call.name]),
    call.input === null ? '' : ` ${JSON.stringify(call.input)}`,
    ': ',
    element('span', { class: 'badge', 'data-status': status }, [status]),
    ...(result?.summary === undefined ? [] : [` (${result.summary})`]),
    ...(result?.error === undefined ? [] : [` (${result.error})`]),
  ]);
}

/** Creates the view of a turn the person opened with `text` (`undefined`: a turn no message opened, shown without one). */
export function createTurnView(text: string | undefined, answer: AnswerCard): TurnView {
  const status = element('p', { class: 'turn-status' }, ['Starting…']);
  const reasoning = element('p');
  const reasoningBox = element('details', { class: 'reasoning', hidden: '' }, [element('summary', {}, ['Reasoning']), reasoning]);
  const textView = createTurnTextView();
  const tools = element('ul', { class: 'tools', 'aria-label': 'Tool activity' });
  const cards = element('div', { class: 'cards' });
  const problem = element('p', { class: 'problem', role: 'alert' });
  const root = element('li', { class: 'turn' }, [
    ...(text === undefined ? [] : [element('p', { class: 'user' }, [element('span', { class: 'who' }, ['You: ']), text])]),
    element('section', { class: 'assistant', 'aria-label': 'Assistant' }, [status, reasoningBox, textView.element, tools, cards, problem]),
  ]);
  const cardViews = new Map<string, CardView>();
  let shownTools = '[]';
  return {
    element: root,
    update(turn) {
      root.dataset['turnId'] = turn.turnId;
      root.dataset['status'] = turn.status;
      status.replaceChildren(STATUS_TEXT[turn.status]);
      if (turn.reasoning !== '') {
        reasoningBox.hidden = false;
        reasoning.replaceChildren(turn.reasoning);
      }
      textView.update(turn.text, turn.status === 'running');
      // Redrawn only when a call or result changed, so the live region does not read the rows again for each delta.
      const toolKey = JSON.stringify(turn.toolCalls);
      if (toolKey !== shownTools) tools.replaceChildren(...turn.toolCalls.map(toolRow));
      shownTools = toolKey;
      for (const card of turn.cards) {
        const existing = cardViews.get(card.card.correlationId);
        if (existing !== undefined) existing.update(card);
        else {
          const view = createCardView(card, answer);
          cardViews.set(card.card.correlationId, view);
          cards.append(view.element);
        }
      }
      if (turn.error !== null) {
        problem.replaceChildren(`${turn.error.message}${turn.error.retryable ? ' (you may send it again)' : ''}`);
      }
    },
    showProblem(message) {
      problem.replaceChildren(message);
    },
  };
}
