import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../../test-support/property-runs.js';
import { createSayProjector, createSayScanState, projectSayText, scanSay, type SayProjectionOptions } from './say-projection.js';

// DESIGN §4 "`<say>` projection" and issue 13 ("`<say>` projection ... is
// missing"): the shipped SayStreamProjector / projectSayText behaviour, one-shot
// and streaming, on the shared scanner.

interface SayCorpusCase {
  readonly name: string;
  readonly rule: string;
  readonly text: string;
  readonly allowPlainText: boolean;
  readonly projection: string;
}
const sayCorpus = JSON.parse(readFileSync(new URL('../../../fixtures/blocks/say-corpus.json', import.meta.url), 'utf8')) as {
  readonly description: string;
  readonly cases: SayCorpusCase[];
};

/** Feeds `text` cut at `cuts` (ascending) to a fresh projector; returns every output, `end()` last. */
function feed(text: string, cuts: readonly number[], options: SayProjectionOptions): string[] {
  const projector = createSayProjector(options);
  const outputs: string[] = [];
  let previous = 0;
  for (const cut of [...cuts, text.length]) {
    outputs.push(projector.push(text.slice(previous, cut)));
    previous = cut;
  }
  outputs.push(projector.end());
  return outputs;
}

describe("the shipped package's cases (Papercusp/chat-protocol src/say-stream.test.ts)", () => {
  const reply = 'Two routes. Want me to list the templates?';
  const wire = `<say>${reply}</say><continue/>`;

  it('never exposes envelope fragments at any split boundary (DESIGN §4: a partial closer held back)', () => {
    for (let split = 0; split <= wire.length; split++) {
      const projector = createSayProjector({ allowPlainText: true });
      const first = projector.push(wire.slice(0, split));
      expect(reply.startsWith(first)).toBe(true);
      expect(first + projector.push(wire.slice(split))).toBe(reply);
    }
  });

  // [text, options, projection]: each row is one `expect` of the shipped test, in its order.
  const table: ReadonlyArray<readonly [string, SayProjectionOptions | undefined, string]> = [
    ['Plain reply', { allowPlainText: false }, ''],
    ['Plain reply', undefined, 'Plain reply'],
    [wire, undefined, reply],
    ['  <SAY>Still working</SA', undefined, 'Still working'],
    ['<say>', undefined, ''],
    ['<sa', undefined, ''],
    ['<sleep duration="5"><continue/>', undefined, ''],
    ['<report>{"title":"Status"}</report>', undefined, ''],
    ['<script>alert(1)</script>', undefined, '<script>alert(1)</script>'],
    [`<say>**A complete answer**\n\n${'details '.repeat(100)}</say>`, undefined, `**A complete answer**\n\n${'details '.repeat(100)}`],
  ];
  it.each(table)('projectSayText(%j, %j) is %j (shipped behaviour, DESIGN §4)', (text, options, projection) => {
    expect(projectSayText(text, options)).toBe(projection);
  });

  it('the projector is tagged-only by default and streams plain prose with allowPlainText (shipped defaults)', () => {
    expect(createSayProjector().push('Plain reply')).toBe('');
    const plain = createSayProjector({ allowPlainText: true });
    expect(plain.push('Plain ')).toBe('Plain ');
    expect(plain.push('reply')).toBe('reply');
  });
});

describe('say corpus (fixtures/blocks/say-corpus.json)', () => {
  it('names a distinct rule per case and covers both modes', () => {
    expect(new Set(sayCorpus.cases.map((entry) => entry.name)).size).toBe(sayCorpus.cases.length);
    expect(sayCorpus.cases.length).toBeGreaterThanOrEqual(20);
    expect(sayCorpus.cases.some((entry) => entry.allowPlainText)).toBe(true);
    expect(sayCorpus.cases.some((entry) => !entry.allowPlainText)).toBe(true);
  });

  describe.each(sayCorpus.cases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const options = { allowPlainText: entry.allowPlainText };
    it(`projectSayText gives the exact projection: ${entry.rule}`, () => {
      expect(projectSayText(entry.text, options)).toBe(entry.projection);
    });

    it('the projector gives the same text cut at every position, and one character at a time', () => {
      for (let cut = 0; cut <= entry.text.length; cut++) expect(feed(entry.text, [cut], options).join('')).toBe(entry.projection);
      const everyPosition = Array.from({ length: Math.max(0, entry.text.length - 1) }, (_, index) => index + 1);
      expect(feed(entry.text, everyPosition, options).join('')).toBe(entry.projection);
    });
  });
});

describe('createSayProjector', () => {
  it('push returns only the newly visible text and holds a partial closer until it is not one (DESIGN §4)', () => {
    const projector = createSayProjector();
    expect(projector.push('<set_mode mode="active"/><sa')).toBe('');
    expect(projector.push('y>Hel')).toBe('Hel');
    expect(projector.push('lo </s')).toBe('lo ');
    expect(projector.push('x and </SA')).toBe('</sx and ');
    expect(projector.push('Y><continue/>')).toBe('');
    expect(projector.push('<say>more</say>')).toBe('');
  });

  it('end() shows nothing more and resets: the next text is read from a fresh state', () => {
    const projector = createSayProjector({ allowPlainText: true });
    expect(projector.push('<say>Done</sa')).toBe('Done');
    expect(projector.end()).toBe('');
    expect(projector.push('Plain again')).toBe('Plain again');
    expect(projector.end()).toBe('');
    expect(projector.push('<say>Third</say>')).toBe('Third');
  });

  it('decides plain or tagged only once the start is no longer a control opener prefix (shipped allowPlainText rule)', () => {
    const projector = createSayProjector({ allowPlainText: true });
    expect(projector.push('  \n')).toBe('');
    expect(projector.push('<hand')).toBe('');
    expect(projector.push('off_to_q')).toBe('');
    expect(projector.push('ueen to="x"/><say>On it')).toBe('On it');
    const plain = createSayProjector({ allowPlainText: true });
    expect(plain.push(' <c')).toBe('');
    expect(plain.push('at> sat')).toBe(' <cat> sat');
  });

  it('ignores empty and non-string deltas', () => {
    const projector = createSayProjector();
    expect(projector.push('')).toBe('');
    expect(projector.push(42 as unknown as string)).toBe('');
    expect(projector.push('<say>ok</say>')).toBe('ok');
  });
});

// Fragments that exercise every rule; generated texts are concatenations.
const FRAGMENTS = [
  '<say>',
  '<SAY>',
  '</say>',
  '</Say>',
  '<say >',
  '<sayx>',
  '<',
  '<s',
  '<sa',
  '<say',
  '</',
  '</s',
  '</sa',
  '</say',
  '<continue/>',
  '<continue>',
  '<set_mode mode="passive"/>',
  '<sleep duration="5">',
  '<handoff_to_queen>',
  '<handoff',
  '<report>{}</report>',
  '<ask>',
  '<script>',
  '`',
  '```\n',
  ' ',
  '\n',
  '\t',
  'x',
  'Hello',
  '🎉',
  '\ud800',
  'İ',
  'K',
];
const fragmentText = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join(''));
const anyOptions = fc.constantFrom<SayProjectionOptions | undefined>(undefined, { allowPlainText: true }, { allowPlainText: false });

describe('every way of cutting a text gives the one-shot projection', () => {
  it('after every delta of a random cut, the outputs so far equal projectSayText of the prefix (nothing retracted)', () => {
    fc.assert(
      fc.property(
        fragmentText.chain((source) =>
          fc.tuple(fc.constant(source), fc.uniqueArray(fc.integer({ min: 0, max: source.length }), { maxLength: 30 })),
        ),
        anyOptions,
        ([source, cuts], options) => {
          // projectSayText defaults to plain text allowed, the projector to tagged-only: compare with one explicit setting.
          const explicit = { allowPlainText: options?.allowPlainText ?? false };
          const projector = createSayProjector(explicit);
          let shown = '';
          let previous = 0;
          for (const cut of [...cuts].sort((left, right) => left - right)) {
            shown += projector.push(source.slice(previous, cut));
            previous = cut;
            expect(shown).toBe(projectSayText(source.slice(0, cut), explicit));
          }
          shown += projector.push(source.slice(previous));
          shown += projector.end();
          expect(shown).toBe(projectSayText(source, explicit));
        },
      ),
      { numRuns: runs(500) },
    );
  });

  it('cutting a generated text at any single position gives projectSayText of the whole', () => {
    fc.assert(
      fc.property(fragmentText, fc.boolean(), (source, allowPlainText) => {
        const whole = projectSayText(source, { allowPlainText });
        for (let cut = 0; cut <= source.length; cut++) expect(feed(source, [cut], { allowPlainText }).join('')).toBe(whole);
      }),
      { numRuns: runs(200) },
    );
  });
});

describe('total work is linear in the text (counted steps, not a timer)', () => {
  /** Characters handed to a search while reading `text` in deltas of `deltaLength`, and the number of pushes. */
  function countSteps(text: string, deltaLength: number, plain: boolean): { examined: number; pushes: number } {
    const state = createSayScanState(plain);
    let pushes = 0;
    for (let index = 0; index < text.length; index += deltaLength) {
      scanSay(state, text.slice(index, index + deltaLength));
      pushes++;
    }
    return { examined: state.examined, pushes };
  }

  it('no character is searched more than twice, plus at most five held characters per delta, for generated texts', () => {
    fc.assert(
      fc.property(fragmentText, fc.integer({ min: 1, max: 17 }), fc.boolean(), (source, deltaLength, plain) => {
        const { examined, pushes } = countSteps(source, deltaLength, plain);
        expect(examined).toBeLessThanOrEqual(2 * source.length + 5 * pushes);
      }),
      { numRuns: runs(300) },
    );
  });

  it('holds the bound on long floods read one character at a time, where re-reading the text so far would be quadratic', () => {
    const floods = [
      `<say>${'</sa'.repeat(50_000)}`,
      '<'.repeat(200_000),
      `<continue/>${'<sa'.repeat(50_000)}`,
      `${' '.repeat(100_000)}<say>${'x'.repeat(100_000)}`,
      `<say>${'</s<'.repeat(50_000)}</say>`,
    ];
    for (const flood of floods) {
      for (const plain of [true, false]) {
        const { examined, pushes } = countSteps(flood, 1, plain);
        expect(pushes).toBe(flood.length);
        expect(examined).toBeLessThanOrEqual(2 * flood.length + 5 * pushes);
      }
    }
    expect(projectSayText(`<say>${'</sa'.repeat(50_000)}`)).toBe('</sa'.repeat(49_999));
  });
});
