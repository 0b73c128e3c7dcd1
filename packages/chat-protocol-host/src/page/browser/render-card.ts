/**
 * A card (DESIGN §3.7) as a form: the prompt, its details, approval or report
 * body, and the controls of its kind (text, radio, select, checkbox, confirm,
 * date, slider, or a prompt-only card's answer), plus decline when the card
 * allows it. It builds the `CardResponse` and hands it to `answer`; the host
 * judges it (the server's validation is the authority, not this form).
 */
import { promptOnlyCardKind, type CardValue, type ChatCardState, type OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import { element, type Child } from './dom.js';
import { renderReport } from './render-blocks.js';

/** Sends a card's answer; resolves to `null` when the host took it, or to the message to show. */
export type AnswerCard = (response: {
  readonly action: 'submit' | 'decline';
  readonly correlationId: string;
  readonly value?: CardValue;
}) => Promise<string | null>;

/** One card on the page, updated as its state changes. */
export interface CardView {
  readonly element: HTMLElement;
  update(state: ChatCardState): void;
}

type Presentation = NonNullable<OpenCardSnapshotV1['presentation']>;

// The controls of one kind: their nodes and how to read the value they hold.
interface Controls {
  readonly nodes: readonly Child[];
  // Buttons that submit a fixed value (confirm, approval, acknowledge); otherwise one Submit reads `read()`.
  readonly choices?: readonly { readonly label: string; readonly value: CardValue }[];
  readonly read?: () => CardValue | string;
}

const uniqueName = (correlationId: string, part: string): string => `card-${correlationId}-${part}`;

function labelled(id: string, label: string, control: HTMLElement): HTMLElement {
  control.id = id;
  return element('p', {}, [element('label', { for: id }, [label]), ' ', control]);
}

function optionsControls(presentation: Extract<Presentation, { options: unknown }>, correlationId: string): Controls {
  const { options } = presentation;
  if (presentation.kind === 'select') {
    const select = element('select', {}, [
      element('option', { value: '', disabled: '', selected: '' }, [presentation.placeholder ?? 'Choose…']),
      ...options.map((option) => element('option', { value: option.id }, [option.label])),
    ]);
    return {
      nodes: [labelled(uniqueName(correlationId, 'select'), 'Answer', select)],
      read: () => (select.value === '' ? 'choose an option' : { optionId: select.value }),
    };
  }
  const type = presentation.kind === 'radio' ? 'radio' : 'checkbox';
  const inputs = options.map((option) =>
    element('input', { type, name: uniqueName(correlationId, 'option'), value: option.id, id: uniqueName(correlationId, option.id) }),
  );
  const nodes = options.map((option, index) =>
    element('p', {}, [
      inputs[index] as HTMLInputElement,
      ' ',
      element('label', { for: uniqueName(correlationId, option.id) }, [option.label]),
      ...(option.description === undefined ? [] : [element('span', { class: 'hint' }, [` ${option.description}`])]),
    ]),
  );
  const checked = (): string[] => inputs.filter((input) => input.checked).map((input) => input.value);
  return {
    nodes: [element('div', { role: type === 'radio' ? 'radiogroup' : 'group', 'aria-label': 'Options' }, nodes)],
    read: () => {
      if (type === 'checkbox') return { optionIds: checked() };
      const [optionId] = checked();
      return optionId === undefined ? 'choose an option' : { optionId };
    },
  };
}

function controlsOf(card: OpenCardSnapshotV1): Controls {
  const { presentation, correlationId } = card;
  if (presentation === undefined) {
    const kind = promptOnlyCardKind(card);
    if (kind === 'approval')
      return {
        nodes: [],
        choices: [
          { label: 'Approve', value: { confirmed: true } },
          { label: 'Reject', value: { confirmed: false } },
        ],
      };
    if (kind === 'report') return { nodes: [], choices: [{ label: 'Acknowledge', value: { acknowledged: true } }] };
    const input = element('input', { type: 'text' });
    return { nodes: [labelled(uniqueName(correlationId, 'text'), 'Answer', input)], read: () => ({ text: input.value }) };
  }
  switch (presentation.kind) {
    case 'confirm':
      return {
        nodes: [],
        choices: [
          { label: presentation.confirmLabel ?? 'Yes', value: { confirmed: true } },
          { label: presentation.rejectLabel ?? 'No', value: { confirmed: false } },
        ],
      };
    case 'text': {
      const input = presentation.multiline === true ? element('textarea') : element('input', { type: 'text' });
      if (presentation.placeholder !== undefined) input.setAttribute('placeholder', presentation.placeholder);
      if (presentation.maxLength !== undefined) input.setAttribute('maxlength', String(presentation.maxLength));
      return { nodes: [labelled(uniqueName(correlationId, 'text'), 'Answer', input)], read: () => ({ text: input.value }) };
    }
    case 'radio':
    case 'select':
    case 'checkbox':
      return optionsControls(presentation, correlationId);
    case 'date': {
      const input = element('input', { type: 'date', ...(presentation.min === undefined ? {} : { min: presentation.min }) });
      if (presentation.max !== undefined) input.setAttribute('max', presentation.max);
      return {
        nodes: [labelled(uniqueName(correlationId, 'date'), 'Date', input)],
        read: () => (input.value === '' ? 'choose a date' : { date: input.value }),
      };
    }
    case 'slider': {
      const input = element('input', {
        type: 'range',
        min: String(presentation.min),
        max: String(presentation.max),
        step: String(presentation.step ?? 'any'),
      });
      const shown = element('output', { for: uniqueName(correlationId, 'slider') }, [input.value]);
      input.addEventListener('input', () =>
        shown.replaceChildren(`${input.value}${presentation.unit === undefined ? '' : ` ${presentation.unit}`}`),
      );
      return {
        nodes: [labelled(uniqueName(correlationId, 'slider'), 'Value', input), shown],
        read: () => ({ value: Number(input.value) }),
      };
    }
  }
}

/** Creates the card's view. Guarantees: one answer in flight at a time; once the card closes, its controls are disabled. */
export function createCardView(initial: ChatCardState, answer: AnswerCard): CardView {
  const { card } = initial;
  const { correlationId } = card;
  const controls = controlsOf(card);
  const status = element('p', { class: 'card-status', role: 'status' });
  const buttons: HTMLButtonElement[] = [];
  // The stream may close the card before the answer's own response arrives: the closing is the last word.
  let closed = false;
  const send = async (response: Parameters<AnswerCard>[0]): Promise<void> => {
    for (const button of buttons) button.disabled = true;
    status.replaceChildren('Sending…');
    const refused = await answer(response);
    if (closed) return;
    status.replaceChildren(refused ?? 'Sent.');
    if (refused !== null) for (const button of buttons) button.disabled = false;
  };
  const button = (label: string, onClick: () => void): HTMLButtonElement => {
    const node = element('button', { type: 'button' }, [label]);
    node.addEventListener('click', onClick);
    buttons.push(node);
    return node;
  };
  const actions: HTMLButtonElement[] = [];
  for (const choice of controls.choices ?? [])
    actions.push(button(choice.label, () => void send({ action: 'submit', correlationId, value: choice.value })));
  const { read } = controls;
  if (read !== undefined) {
    actions.push(
      button('Submit', () => {
        const value = read();
        if (typeof value === 'string') status.replaceChildren(`Please ${value}.`);
        else void send({ action: 'submit', correlationId, value });
      }),
    );
  }
  if (card.allowDecline === true) actions.push(button('Decline', () => void send({ action: 'decline', correlationId })));
  const fieldset = element(
    'fieldset',
    { class: 'card', 'data-correlation-id': correlationId, 'data-kind': card.presentation?.kind ?? 'prompt-only' },
    [
      element('legend', {}, [card.prompt]),
      ...(card.details === undefined ? [] : [element('p', {}, [card.details])]),
      ...(card.approval === undefined
        ? []
        : [
            element('div', { class: 'approval' }, [
              element('strong', {}, [card.approval.title]),
              element('p', {}, [card.approval.question]),
              ...card.approval.body.map((line) => element('pre', {}, [line])),
            ]),
          ]),
      ...(card.report === undefined ? [] : [renderReport(card.report)]),
      ...controls.nodes,
      element('p', { class: 'actions' }, actions),
      status,
    ],
  );
  const update = (state: ChatCardState): void => {
    fieldset.dataset['closed'] = String(state.closed);
    if (!state.closed) return;
    closed = true;
    fieldset.disabled = true;
    status.replaceChildren(`Closed: ${state.resolution ?? 'not reported'}.`);
  };
  update(initial);
  return { element: fieldset, update };
}
