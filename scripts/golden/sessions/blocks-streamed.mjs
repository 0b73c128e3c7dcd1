// @ts-check
// blocks-streamed: the turn's text carries a <report> and an <ask> block, and
// the deltas cut through both: inside an opener, inside the JSON, inside a
// closer. Inline code that mentions a tag is text, not a block.

import { conversation } from '../session.mjs';

const BLOCKS_START = Date.UTC(2026, 10, 2, 16, 30, 0, 0);
const BLOCKS_TEXT = [
  'Here is where the orders migration stands (I write status as a `<report>` block):\n\n',
  '<report>',
  JSON.stringify({
    title: 'Orders migration',
    plans: [
      {
        slug: 'backfill',
        title: 'Backfill',
        status: 'done',
        items: [{ id: 'copy', text: 'Copy 1.2M rows to orders_v2', status: 'done' }],
      },
      {
        slug: 'cutover',
        title: 'Cut-over',
        status: 'blocked',
        items: [
          { id: 'reads', text: 'Switch reads to orders_v2', status: 'needs-human', ref: 'runbook:orders-cutover' },
          { id: 'drop', text: 'Drop the old table', status: 'todo' },
        ],
      },
    ],
  }),
  '</report>',
  '\n\nOne decision is yours:\n\n',
  '<ask>',
  JSON.stringify({
    question: 'Cut over tonight at 22:00 UTC, or wait for Monday?',
    options: [
      { id: 'tonight', label: 'Tonight at 22:00 UTC' },
      { id: 'monday', label: 'Monday morning', description: 'after the deploy freeze lifts' },
    ],
    refs: ['runbook:orders-cutover'],
  }),
  '</ask>',
].join('');
// Cut after each of these, in order: each lands inside a tag or its JSON.
const BLOCKS_CUTS = ['`<rep', ':\n\n<rep', '"Backfill","st', '</rep', 'yours:\n\n<a', 'sk>{"question":"Cut over', '22:00 UTC"},', '</as'];

/**
 * `text` cut after each of `cuts`, found in order.
 * @param {string} text
 * @param {readonly string[]} cuts
 * @returns {string[]}
 */
function cutText(text, cuts) {
  const pieces = [];
  let from = 0;
  for (const cut of cuts) {
    const at = text.indexOf(cut, from) + cut.length;
    if (at < from + cut.length) throw new Error(`cut not found after ${from}: ${cut}`);
    pieces.push(text.slice(from, at));
    from = at;
  }
  pieces.push(text.slice(from));
  return pieces;
}

const blocksStreamed = conversation({
  name: 'blocks-streamed',
  start: BLOCKS_START,
  turns: [[
    ...cutText(BLOCKS_TEXT, BLOCKS_CUTS).map((text, index) => /** @type {const} */ ([200 + index * 90, { type: 'delta', text }])),
    [1_400, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 2650, outputTokens: 233 } }],
  ]],
});

/** @type {import('../session.mjs').GoldenSession} */
export const blocksStreamedSession = {
  name: 'blocks-streamed',
  title: 'A turn whose text carries a <report> and an <ask> block, cut mid-tag by its deltas',
  scenario: ['blocks-split-while-streaming'],
  envelopes: blocksStreamed,
};
