import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOCK_LIMITS } from './limits.js';
import { createTurnTextSplitter, splitTurnText, type TurnTextSegment } from './split.js';

// The block grammar corpus (fixtures/blocks/corpus.json): one case per grammar
// rule with the exact segments. Every case is read whole by splitTurnText and
// delta by delta by the incremental splitter, cut at every position and at
// random sets of positions: DESIGN §4, "for every way of cutting a text into
// deltas its output equals splitTurnText on the whole text".
interface CorpusCase {
  readonly name: string;
  readonly rule: string;
  readonly text: string;
  readonly streaming: boolean;
  readonly segments: TurnTextSegment[];
}
interface Corpus {
  readonly description: string;
  readonly maxTagBodyLength: number;
  readonly cases: CorpusCase[];
}

const corpus = JSON.parse(readFileSync(new URL('../../../fixtures/blocks/corpus.json', import.meta.url), 'utf8')) as Corpus;

/** Adjacent text segments joined: how a renderer concatenates the outputs of successive pushes. */
function mergeText(segments: readonly TurnTextSegment[]): TurnTextSegment[] {
  const merged: TurnTextSegment[] = [];
  for (const segment of segments) {
    const last = merged[merged.length - 1];
    if (segment.kind === 'text' && last?.kind === 'text') merged[merged.length - 1] = { kind: 'text', text: last.text + segment.text };
    else merged.push(segment);
  }
  return merged;
}

/**
 * Feeds `text` cut at `cuts` (ascending positions) to a fresh splitter; returns
 * every push output plus `end()` (or `peek()` while streaming), unmerged.
 */
function feed(text: string, cuts: readonly number[], streaming: boolean): TurnTextSegment[] {
  const splitter = createTurnTextSplitter();
  const outputs: TurnTextSegment[] = [];
  let previous = 0;
  for (const cut of [...cuts, text.length]) {
    outputs.push(...splitter.push(text.slice(previous, cut)));
    previous = cut;
  }
  outputs.push(...(streaming ? splitter.peek() : splitter.end()));
  return outputs;
}

/** What a case's every-cut check compares: merged outputs, and that no output was an empty text or a pending from push. */
function readCut(text: string, cuts: readonly number[], streaming: boolean): TurnTextSegment[] {
  const outputs = feed(text, cuts, streaming);
  for (const segment of outputs) {
    if (segment.kind === 'text' && segment.text.length === 0) throw new Error('an empty text segment was emitted');
  }
  return mergeText(outputs);
}

/**
 * Every cut position for texts up to this length; past it (the over-limit body
 * case), every position within 16 characters of a `<`, `>`, a line break or an
 * end, plus a stride: every position would cost n² for a 256 KiB body.
 */
const EVERY_POSITION_UP_TO = 8_192;

function cutPositions(text: string): number[] {
  if (text.length <= EVERY_POSITION_UP_TO) return Array.from({ length: text.length + 1 }, (_, index) => index);
  const positions = new Set<number>();
  const near = (center: number) => {
    for (let offset = -16; offset <= 16; offset++) {
      const position = center + offset;
      if (position >= 0 && position <= text.length) positions.add(position);
    }
  };
  near(0);
  near(text.length);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 60 || code === 62 || code === 10) near(index);
  }
  for (let position = 0; position <= text.length; position += 997) positions.add(position);
  return [...positions].sort((left, right) => left - right);
}

describe('block grammar corpus (fixtures/blocks/corpus.json)', () => {
  it('has at least 30 cases, each naming a distinct rule with its exact segments', () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(corpus.cases.map((entry) => entry.name)).size).toBe(corpus.cases.length);
    for (const entry of corpus.cases) {
      expect(entry.name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(entry.rule.length).toBeGreaterThan(10);
      expect(typeof entry.text).toBe('string');
      expect(typeof entry.streaming).toBe('boolean');
      expect(Array.isArray(entry.segments)).toBe(true);
    }
    expect(corpus.maxTagBodyLength).toBe(BLOCK_LIMITS.maxTagBodyLength);
  });

  it('covers both modes and every segment kind', () => {
    const kinds = new Set(corpus.cases.flatMap((entry) => entry.segments.map((segment) => segment.kind)));
    expect([...kinds].sort()).toStrictEqual(['ask', 'invalid', 'pending', 'report', 'text']);
    expect(corpus.cases.some((entry) => entry.streaming)).toBe(true);
    expect(corpus.cases.some((entry) => !entry.streaming)).toBe(true);
  });

  describe.each(corpus.cases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    it(`splitTurnText gives the exact segments: ${entry.rule}`, () => {
      expect(splitTurnText(entry.text, { streaming: entry.streaming })).toStrictEqual(entry.segments);
    });

    it('the splitter gives the same segments for the text cut at every single position', () => {
      for (const cut of cutPositions(entry.text)) {
        const segments = readCut(entry.text, [cut], entry.streaming);
        if (!isDeepStrictEqual(segments, entry.segments)) {
          // One readable failure names the cut instead of thousands of assertions.
          expect({ cut, segments }).toStrictEqual({ cut, segments: entry.segments });
        }
      }
    });

    it('the splitter gives the same segments for the text fed one character at a time', () => {
      const everyPosition = Array.from({ length: Math.max(0, entry.text.length - 1) }, (_, index) => index + 1);
      expect(readCut(entry.text, everyPosition, entry.streaming)).toStrictEqual(entry.segments);
    });

    it('the splitter gives the same segments for random multi-cut deltas', () => {
      const runs = entry.text.length > EVERY_POSITION_UP_TO ? 20 : 200;
      fc.assert(
        fc.property(fc.uniqueArray(fc.integer({ min: 0, max: entry.text.length }), { maxLength: 24 }), (cuts) => {
          const sorted = [...cuts].sort((left, right) => left - right);
          expect(readCut(entry.text, sorted, entry.streaming)).toStrictEqual(entry.segments);
        }),
        { numRuns: runs },
      );
    });
  });
});
