import { createTurnTextSplitter, serializeAskTag, stripBlockTags } from '@papercusp/chat-protocol-blocks';

// Producer: `<`, `>` and `&` inside the JSON are escaped, so "</ask>" in a label cannot end the tag.
const text = `Ready to ship. ${serializeAskTag({
  question: 'Deploy to production?',
  options: [
    { id: 'yes', label: 'Deploy </ask> now' },
    { id: 'no', label: 'Wait' },
  ],
})} Tell me when.`;

// Renderer: feed 16-character deltas; each call returns only the segments that are final
// (prose may come in several pieces: a renderer appends text to text).
const splitter = createTurnTextSplitter();
const segments = [];
const take = (final) => {
  for (const segment of final) {
    const last = segments[segments.length - 1];
    if (segment.kind === 'text' && last?.kind === 'text') segments[segments.length - 1] = { kind: 'text', text: last.text + segment.text };
    else segments.push(segment);
  }
};
for (let at = 0; at < text.length; at += 16) take(splitter.push(text.slice(at, at + 16)));
take(splitter.end());

for (const segment of segments) {
  if (segment.kind === 'text') console.log(`text: ${JSON.stringify(segment.text)}`);
  else if (segment.kind === 'ask')
    console.log(`ask: ${segment.block.question} [${segment.block.options.map((option) => option.label).join(' | ')}]`);
  else console.log(segment.kind);
}
console.log(`plain: ${stripBlockTags(text)}`);
