/**
 * A turn's assistant text as DOM, segment by segment (`splitTurnText`, DESIGN
 * §4): prose as text nodes, report and ask blocks through `render-blocks.ts`,
 * a block still streaming as a placeholder, a malformed block skipped. Updates
 * only append or replace what changed, so a screen reader's live region reads
 * each new piece of text once.
 */
import { splitTurnText, type TurnTextSegment } from '@papercusp/chat-protocol-blocks';
import { element } from './dom.js';
import { renderAsk, renderReport } from './render-blocks.js';

/** Renders a turn's text into one container, again and again as it grows. */
export interface TurnTextView {
  readonly element: HTMLElement;
  /** Shows `text`; `streaming` while the turn runs (an open tag is pending, not invalid). */
  update(text: string, streaming: boolean): void;
}

// What identifies a rendered segment: equal keys render the same DOM.
const keyOf = (segment: TurnTextSegment): string => {
  if (segment.kind === 'text') return `text:${segment.text}`;
  if (segment.kind === 'pending') return `pending:${segment.tag}`;
  return `${segment.kind}:${segment.raw}`;
};

function renderSegment(segment: TurnTextSegment): HTMLElement {
  if (segment.kind === 'text') return element('span', { class: 'prose' }, [segment.text]);
  if (segment.kind === 'report') return renderReport(segment.block);
  if (segment.kind === 'ask') return renderAsk(segment.block);
  if (segment.kind === 'pending') return element('span', { class: 'pending', 'aria-hidden': 'true' }, [`(writing a ${segment.tag}…)`]);
  // A malformed block is skipped (DESIGN §4); the empty node keeps the segments aligned.
  return element('span', { class: 'invalid-block', hidden: '' });
}

/** Creates the view. Guarantees: model text only ever reaches the DOM as text nodes or parsed block fields. */
export function createTurnTextView(): TurnTextView {
  const container = element('div', { class: 'text' });
  let rendered: { key: string; segment: TurnTextSegment; node: HTMLElement }[] = [];
  return {
    element: container,
    update(text, streaming) {
      const segments = splitTurnText(text, { streaming });
      const next: typeof rendered = [];
      let index = 0;
      for (; index < segments.length && index < rendered.length; index += 1) {
        const segment = segments[index] as TurnTextSegment;
        const previous = rendered[index] as (typeof rendered)[number];
        const key = keyOf(segment);
        if (key === previous.key) {
          next.push(previous);
          continue;
        }
        // Prose that grew: append only the new characters.
        if (segment.kind === 'text' && previous.segment.kind === 'text' && segment.text.startsWith(previous.segment.text)) {
          previous.node.append(document.createTextNode(segment.text.slice(previous.segment.text.length)));
          next.push({ key, segment, node: previous.node });
          continue;
        }
        break;
      }
      for (const stale of rendered.slice(index)) stale.node.remove();
      for (const segment of segments.slice(index)) {
        const node = renderSegment(segment);
        container.append(node);
        next.push({ key: keyOf(segment), segment, node });
      }
      rendered = next;
    },
  };
}
