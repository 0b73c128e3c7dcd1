import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodedGoldenSessions } from '../test/golden-sessions.js';
import { createAgUiDecoder, type DecodeAgUiEventRefusalCode } from './create-ag-ui-decoder.js';
import { cardResponseFromResumeEntry } from './resume-entries.js';

const CODES: readonly DecodeAgUiEventRefusalCode[] = [
  'invalid-event',
  'unsupported-event',
  'outside-run',
  'foreign-thread',
  'unknown-message',
  'unknown-tool-call',
  'invalid-tool-arguments',
  'unknown-tool-status',
  'unknown-state',
  'invalid-patch',
  'invalid-envelope',
  'unclosed-brackets',
];

const goldenEvents = encodedGoldenSessions().flatMap((session) => session.events) as unknown[];
// AG-UI-shaped records with hostile field values, golden events, and anything at all.
const eventLike = fc.oneof(
  fc.constantFrom(...goldenEvents),
  fc
    .record(
      {
        type: fc.constantFrom(
          'RUN_STARTED',
          'TEXT_MESSAGE_START',
          'TEXT_MESSAGE_CONTENT',
          'TOOL_CALL_END',
          'TOOL_CALL_RESULT',
          'CUSTOM',
          'RUN_FINISHED',
          'STATE_SNAPSHOT',
          'STATE_DELTA',
        ),
      },
      { requiredKeys: [] },
    )
    .chain((base) =>
      fc
        .dictionary(
          fc.constantFrom('threadId', 'runId', 'messageId', 'delta', 'toolCallId', 'name', 'value', 'metadata', 'snapshot', '__proto__'),
          fc.anything(),
        )
        .map((extra) => ({ ...extra, ...base })),
    ),
  fc.anything(),
);

describe('hostile input is normal input (DESIGN §2.7)', () => {
  it('the decoder never throws: every event decodes or is refused with a code of its union, and refusals are counted', () => {
    fc.assert(
      fc.property(fc.array(eventLike, { maxLength: 30 }), (events) => {
        let seq = 0;
        const decoder = createAgUiDecoder({
          conversationId: 'conv_1',
          identify: ({ runId }) => ({ turnId: runId, eventId: `evt_${++seq}`, seq, occurredAt: '2026-12-01T10:00:00.000Z' }),
        });
        let refused = 0;
        for (const event of events) {
          const result = decoder.decode(event);
          if (!result.ok) {
            refused += 1;
            expect(CODES).toContain(result.code);
          }
        }
        expect(Object.values(decoder.refusals()).reduce((sum, count) => sum + count, 0)).toBe(refused);
      }),
    );
  });

  it('cardResponseFromResumeEntry never throws', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({
            interruptId: fc.string(),
            status: fc.constantFrom('resolved', 'cancelled'),
            payload: fc.anything(),
            metadata: fc.anything(),
          }),
        ),
        (entry) => {
          const result = cardResponseFromResumeEntry(entry);
          expect(typeof result.ok).toBe('boolean');
        },
      ),
    );
  });
});
