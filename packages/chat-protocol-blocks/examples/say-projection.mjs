import { createSayProjector, projectSayText, splitTurnText } from '@papercusp/chat-protocol-blocks';

// A converse-backend turn: what the person sees is inside <say>; the rest is control.
const turn = '<set_mode mode="active"/><say>Two routes. Want me to list the templates?</say><continue/>';

// Streaming: push each delta, append what comes back. A cut closer (`</sa`) is never shown.
const projector = createSayProjector();
const shown = [];
for (let at = 0; at < turn.length; at += 9) shown.push(projector.push(turn.slice(at, at + 9)));
projector.end();
console.log(`streamed: ${JSON.stringify(shown.filter((piece) => piece !== '').join(' | '))}`);

// History: old rows hold plain text, newer ones the envelope; the one-shot form reads both.
console.log(`history: ${projectSayText(turn)}`);
console.log(`plain row: ${projectSayText('Plain reply from before the envelope')}`);
console.log(`tagged only: ${JSON.stringify(projectSayText('Plain reply', { allowPlainText: false }))}`);

// The projected text is turn text: blocks inside <say> are read as usual.
const withReport = '<say>Status:\n<report>{"plans":[{"title":"Ship","status":"wip"}]}</report></say><continue/>';
console.log(
  splitTurnText(projectSayText(withReport))
    .map((segment) => segment.kind)
    .join(', '),
);
