/**
 * Report and ask blocks (DESIGN §4) as DOM: what the blocks package parsed,
 * shown as headings, lists and text nodes. It renders only the fields the
 * block schemas define; a reference (`ref`) is shown as text, never followed.
 */
import type { AskBlock, ReportBlock } from '@papercusp/chat-protocol-blocks';
import { element, type Child } from './dom.js';

const statusBadge = (status: string | undefined): Child[] =>
  status === undefined ? [] : [' ', element('span', { class: 'badge', 'data-status': status }, [status])];

/** A `<report>` block: its title, each plan with its status and summary, each item with its status. */
export function renderReport(block: ReportBlock): HTMLElement {
  const title = block.title ?? 'Report';
  return element('section', { class: 'block report', 'aria-label': `Report: ${title}` }, [
    element('h3', {}, [title]),
    element(
      'ul',
      {},
      block.plans.map((plan) =>
        element('li', {}, [
          element('strong', {}, [plan.title]),
          ...statusBadge(plan.status),
          ...(plan.summary === undefined ? [] : [element('p', {}, [plan.summary])]),
          ...(plan.items === undefined
            ? []
            : [
                element(
                  'ul',
                  {},
                  plan.items.map((item) => element('li', {}, [item.text, ...statusBadge(item.status)])),
                ),
              ]),
        ]),
      ),
    ),
  ]);
}

/** An `<ask>` block: the question, its options with their descriptions, and its references as text. */
export function renderAsk(block: AskBlock): HTMLElement {
  return element('section', { class: 'block ask', 'aria-label': 'Question' }, [
    element('p', {}, [element('strong', {}, [block.question])]),
    ...(block.options === undefined
      ? []
      : [
          element(
            'ul',
            {},
            block.options.map((option) =>
              element('li', { 'data-option-id': option.id }, [
                option.label,
                ...(option.description === undefined ? [] : [': ', option.description]),
              ]),
            ),
          ),
        ]),
    ...(block.refs === undefined ? [] : [element('p', { class: 'refs' }, [`References: ${block.refs.join(', ')}`])]),
  ]);
}
