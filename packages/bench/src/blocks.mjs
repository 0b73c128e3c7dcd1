/**
 * The blocks benchmark (issue #3): a 1 MB turn text with 2,000 blocks read three
 * ways — fed in 16-byte deltas to `createTurnTextSplitter`, split once whole by
 * `splitTurnText`, and re-split whole at every delta (the naive reader) — plus
 * the gzipped size of the blocks entry. It exports contenders for the shared
 * harness and the rows run.mjs prints; it times nothing itself.
 */
import { isDeepStrictEqual } from 'node:util';
import { createTurnTextSplitter, splitTurnText } from '@papercusp/chat-protocol-blocks';
import { measureBundle } from './bundle-size.mjs';

/** Size of the turn text in UTF-16 code units (1 MiB), and how many blocks it carries. */
const BLOCKS_TEXT_LENGTH = 1_048_576;
const BLOCK_COUNT = 2_000;
/** Delta size, as a model streams small chunks. */
const DELTA_LENGTH = 16;
/**
 * The naive reader is quadratic, so it runs on prefixes only: NAIVE_PREFIXES[1]
 * is extrapolated to the whole text by (whole / prefix)², and the two prefixes
 * together measure the growth exponent that extrapolation assumes.
 */
const NAIVE_PREFIXES = [16_384, 32_768];
const BLOCK_GOALS = { versusOneShot: 1.5, versusNaive: 100, gzippedBytes: 4_000 };

// Prose a model writes around its blocks: sentences, one in eight with inline code,
// one with a stray `<`, paragraph and line breaks, and now and then a fenced
// example holding a tag that must stay text.
const SENTENCES = [
  'I checked the failing test and the fixture it reads. ',
  'The parser now keeps only a small carry between deltas, so streaming stays cheap. ',
  'Run `pnpm test` before you merge; the corpus covers every grammar rule. ',
  'The bound holds as long as n < 65536 for every block body. ',
  'Next I will update the README and the changeset.\n\n',
  'Both readers agree on every cut, which the property tests check. ',
  'The benchmark feeds sixteen characters at a time. ',
  'Nothing here renders; the host decides how blocks look.\n',
];
// It opens on a fresh line: after a tag's closer the line is not at its start.
const FENCE = '\n```md\nExample: <ask>{"question":"shown, not asked"}</ask>\n```\n';

function reportTag(index) {
  return `<report>${JSON.stringify({
    title: `Sprint ${index}`,
    plans: [
      {
        slug: `plan-${index}`,
        title: `Ship block ${index}`,
        status: 'wip',
        items: [
          { id: `grammar-${index}`, text: 'Write the grammar', status: 'done' },
          { id: `bench-${index}`, text: 'Benchmark the splitter', status: 'todo' },
        ],
      },
    ],
  })}</report>`;
}

function askTag(index) {
  return `<ask>${JSON.stringify({
    question: `Deploy build ${index} to production?`,
    options: [
      { id: 'yes', label: 'Yes, deploy now' },
      { id: 'no', label: 'Not yet' },
      { id: 'later', label: 'Tomorrow', description: 'After the freeze' },
    ],
  })}</ask>`;
}

/** The turn text: 2,000 blocks, reports and asks alternating, each after a stretch of prose, 1 MiB in all. */
function buildTurnText() {
  const tags = Array.from({ length: BLOCK_COUNT }, (_, index) => (index % 2 === 0 ? reportTag(index) : askTag(index)));
  const proseLength = Math.floor((BLOCKS_TEXT_LENGTH - tags.reduce((sum, tag) => sum + tag.length, 0)) / BLOCK_COUNT);
  let text = '';
  tags.forEach((tag, index) => {
    let prose = index % 50 === 0 ? FENCE : '';
    for (let sentence = index; prose.length < proseLength; sentence++) prose += SENTENCES[sentence % SENTENCES.length];
    text += `${prose.slice(0, proseLength - 1)}\n${tag}`;
  });
  return text + ' '.repeat(BLOCKS_TEXT_LENGTH - text.length);
}

const blocksTurnText = buildTurnText();
// Cut once, outside the timing: a host receives its deltas as strings.
const deltas = [];
for (let index = 0; index < blocksTurnText.length; index += DELTA_LENGTH) deltas.push(blocksTurnText.slice(index, index + DELTA_LENGTH));

function feedSplitter() {
  const splitter = createTurnTextSplitter();
  let segments = 0;
  for (const delta of deltas) segments += splitter.push(delta).length;
  return segments + splitter.end().length;
}

function splitOnce() {
  return splitTurnText(blocksTurnText).length;
}

/** What a reader without the incremental splitter does: re-split everything received so far at every delta. */
function naiveResplit(prefixLength) {
  let segments = [];
  for (let end = DELTA_LENGTH; end <= prefixLength; end += DELTA_LENGTH) {
    segments = splitTurnText(blocksTurnText.slice(0, end), { streaming: true });
  }
  return segments.length;
}

// The readers must agree before any of them is timed: a fast wrong reader is no benchmark.
const whole = splitTurnText(blocksTurnText);
const blockKinds = whole.filter((segment) => segment.kind !== 'text').map((segment) => segment.kind);
if (blockKinds.length !== BLOCK_COUNT || blockKinds.some((kind, index) => kind !== (index % 2 === 0 ? 'report' : 'ask'))) {
  throw new Error(
    `blocks fixture: expected ${BLOCK_COUNT} valid blocks, got ${blockKinds.length} (${[...new Set(blockKinds)].join(', ')})`,
  );
}
{
  const splitter = createTurnTextSplitter();
  const outputs = [];
  for (const delta of deltas) outputs.push(...splitter.push(delta));
  outputs.push(...splitter.end());
  const merged = [];
  for (const segment of outputs) {
    const last = merged[merged.length - 1];
    if (segment.kind === 'text' && last?.kind === 'text') merged[merged.length - 1] = { kind: 'text', text: last.text + segment.text };
    else merged.push(segment);
  }
  if (!isDeepStrictEqual(merged, whole)) throw new Error('blocks fixture: the incremental splitter disagrees with splitTurnText');
}
const segmentCount = whole.length;
const naiveSegmentCounts = NAIVE_PREFIXES.map((prefix) => splitTurnText(blocksTurnText.slice(0, prefix), { streaming: true }).length);

/** Contenders for the shared harness: one run reads the whole text (or the naive reader's prefix). */
export const blockContenders = [
  { id: 'blocks/one-shot', run: splitOnce, check: (count) => count === segmentCount },
  { id: 'blocks/incremental', run: feedSplitter, check: (count) => count > segmentCount },
];

/** The naive reader on each prefix; measured separately, with fewer rounds (a run takes a large part of a second). */
export const naiveContenders = NAIVE_PREFIXES.map((prefix, index) => ({
  id: `blocks/naive-${prefix}`,
  run: () => naiveResplit(prefix),
  check: (count) => count === naiveSegmentCounts[index],
}));

/**
 * Minified and gzipped size of the blocks entry with zod external (every export,
 * as a bundler that keeps them all would ship it), and of the streaming reader
 * alone (`splitTurnText`, `createTurnTextSplitter`, `stripBlockTags` and the tag
 * readers) with zod bundled in if it reached it.
 */
export async function measureBlocksBundles() {
  return {
    entry: await measureBundle("export * from '@papercusp/chat-protocol-blocks';", ['zod', 'zod/*']),
    reader: await measureBundle(
      "export { createTurnTextSplitter, parseAskTag, parseReportTag, splitTurnText, stripBlockTags } from '@papercusp/chat-protocol-blocks';",
      [],
    ),
  };
}

/**
 * The blocks rows: `main` holds the samples of {@link blockContenders},
 * `naive` those of {@link naiveContenders} taken with `blocks/incremental` in
 * the same rounds. Returns rows for the blocks table and the figures the notes quote.
 */
export function blockRows({ main, naive, bundles, median, medianRatio }) {
  const milliseconds = (nanoseconds) => `${(nanoseconds / 1e6).toFixed(2)} ms`;
  const times = (value) => `${value < 10 ? value.toFixed(2) : Math.round(value).toLocaleString('en')}×`;
  const verdict = (met) => (met ? 'yes' : '**no**');
  const bytes = (value) => `${value.toLocaleString('en')} B`;
  const oneShot = main.get('blocks/one-shot');
  const incremental = main.get('blocks/incremental');
  const incrementalRatio = medianRatio(incremental, oneShot);
  const [shortPrefix, longPrefix] = NAIVE_PREFIXES;
  const shortNaive = naive.get(`blocks/naive-${shortPrefix}`);
  const longNaive = naive.get(`blocks/naive-${longPrefix}`);
  const scale = (BLOCKS_TEXT_LENGTH / longPrefix) ** 2;
  const exponent = Math.log2(medianRatio(longNaive, shortNaive)) / Math.log2(longPrefix / shortPrefix);
  // Per round: the naive reader's extrapolated whole-text time over the splitter's time in the same round.
  const naiveRatio = medianRatio(
    longNaive.map((value) => value * scale),
    naive.get('blocks/incremental'),
  );
  const input = `${(BLOCKS_TEXT_LENGTH / 1024).toLocaleString('en')} KiB, ${BLOCK_COUNT.toLocaleString('en')} blocks`;
  const rows = [
    {
      contender: '`splitTurnText` once on the whole text (the floor)',
      input,
      oneShot: '1.00×',
      time: milliseconds(median(oneShot)),
    },
    {
      contender: `**\`createTurnTextSplitter\`**, ${deltas.length.toLocaleString('en')} deltas of ${DELTA_LENGTH} characters`,
      input,
      oneShot: times(incrementalRatio),
      time: milliseconds(median(incremental)),
      goal: `≤ ${times(BLOCK_GOALS.versusOneShot)} the floor`,
      met: verdict(incrementalRatio <= BLOCK_GOALS.versusOneShot),
    },
    {
      contender: `naive: \`splitTurnText(textSoFar, { streaming: true })\` at every delta, first ${(shortPrefix / 1024).toLocaleString('en')} KiB`,
      input: `${(shortPrefix / 1024).toLocaleString('en')} KiB prefix`,
      time: milliseconds(median(shortNaive)),
    },
    {
      contender: `naive, first ${(longPrefix / 1024).toLocaleString('en')} KiB`,
      input: `${(longPrefix / 1024).toLocaleString('en')} KiB prefix`,
      time: milliseconds(median(longNaive)),
    },
    {
      contender: `naive, whole text: the ${(longPrefix / 1024).toLocaleString('en')} KiB time × (1 MiB / ${(longPrefix / 1024).toLocaleString('en')} KiB)² = × ${scale.toLocaleString('en')}`,
      input,
      oneShot: times(
        medianRatio(
          longNaive.map((value) => value * scale),
          oneShot,
        ),
      ),
      time: `${(median(longNaive.map((value) => value * scale)) / 1e9).toFixed(0)} s (extrapolated)`,
      goal: `≥ ${times(BLOCK_GOALS.versusNaive)} the splitter`,
      met: `${verdict(naiveRatio >= BLOCK_GOALS.versusNaive)} (${times(naiveRatio)})`,
    },
    {
      contender: '**blocks entry**, every export, zod external, esbuild min + gzip -9',
      input: `${bytes(bundles.entry.gzippedBytes)} gzipped`,
      goal: `≤ ${bytes(BLOCK_GOALS.gzippedBytes)}`,
      met: verdict(bundles.entry.gzippedBytes <= BLOCK_GOALS.gzippedBytes),
    },
    {
      contender: 'streaming reader alone (split, splitter, strip, tag readers), zod bundled if reached',
      input: `${bytes(bundles.reader.gzippedBytes)} gzipped`,
    },
  ];
  return { rows, incrementalRatio, naiveRatio, exponent, scale, deltaCount: deltas.length };
}
