/**
 * fast-check arbitraries of legacy frames with full identity (every tool frame
 * carries its call id, every value is one v1 accepts), per dialect, and of
 * arbitrary frames for the never-throws properties.
 */
import fc from 'fast-check';
import {
  blockArb,
  envelopeArb,
  hostileValueArb,
  idArb,
  jsonArb,
  jsonObjectArb,
  mutate,
  mutationArb,
  nameArb,
  reportBlockArb,
  textArb,
  usageArb,
} from '../../../test-support/v1-arbitraries.js';

/** A frame as an SSE parser hands it over. */
export interface Frame {
  readonly event?: string;
  readonly data: string;
}

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Drops keys whose value is undefined, as JSON does. */
const compact = (value: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));

const hrefArb = fc.constantFrom('/', '/orders/A-1042?tab=returns#top', 'https://example.com', 'https://shop.example:8443/x?y#z');
const resolutionArb = fc.constantFrom('submitted', 'declined', 'cancelled', 'expired', 'interrupted');

/**
 * A legacy card: a v1 card whose times are epoch milliseconds (1970–2100),
 * with every field Papercusp's shipped cards carry (issue 13): approval,
 * report body, option hint/style, voiceAnswerable, dataSchemaJson, timeoutMs,
 * and prompt-only cards (no presentation). `allowDecline` is always explicit:
 * the form a v1 card projects down to (an absent flag upgrades to `true`).
 */
const legacyCardArb = fc
  .record({
    correlationId: idArb,
    createdAt: fc.integer({ min: 0, max: 4_102_444_800_000 }),
    expiresIn: optional(fc.integer({ min: 1, max: 1_000_000_000 })),
    prompt: nameArb,
    presentation: optional(
      fc.constantFrom(
        { kind: 'text', multiline: true },
        { kind: 'confirm', confirmLabel: 'Yes' },
        {
          kind: 'radio',
          options: [
            { id: 'a', label: 'A' },
            { id: 'b', label: 'B' },
          ],
        },
        {
          kind: 'radio',
          voiceAnswerable: true,
          options: [
            { id: 'yes', label: 'Delete', style: 'danger', hint: 'This cannot be undone' },
            { id: 'no', label: 'Keep', style: 'default' },
          ],
        },
        { kind: 'checkbox', options: [{ id: 'a', label: 'A', style: 'primary' }] },
        { kind: 'select', placeholder: 'Pick', options: [{ id: 'a', label: 'A', description: 'd' }] },
        { kind: 'date', min: '2026-01-01', max: '2026-12-31' },
        { kind: 'slider', min: 0, max: 10, step: 1 },
      ),
    ),
    allowDecline: fc.boolean(),
    timeoutMs: optional(fc.integer({ min: 1, max: 604_800_000 })),
    fallbackText: optional(textArb),
    approval: optional(fc.record({ title: nameArb, question: nameArb, body: fc.array(textArb, { maxLength: 3 }) })),
    report: optional(reportBlockArb),
    dataSchemaJson: optional(jsonObjectArb),
  })
  .map(({ expiresIn, ...card }) => compact({ ...card, expiresAt: expiresIn === undefined ? undefined : card.createdAt + expiresIn }));

// A v1 error in legacy form: `code` and `retryable` appear only when they differ from the defaults.
const errorFieldsArb = fc.oneof(
  fc.record({ message: nameArb, code: optional(idArb.filter((code) => code !== 'stream-error')) }).map(compact),
  fc
    .record({
      message: nameArb,
      code: optional(idArb.filter((code) => code !== 'stream-error')),
      retryable: fc.constant(true),
      retryAfterMs: optional(fc.integer({ min: 0, max: 86_400_000 })),
    })
    .map(compact),
);
const doneFieldsArb = fc.record({ stopReason: optional(nameArb), usage: optional(usageArb) }).map(compact);

const frame = (event: string | undefined, data: Record<string, unknown>): Frame =>
  event === undefined ? { data: JSON.stringify(data) } : { event, data: JSON.stringify(data) };

/** `papercup` frames of every event type, SSE event name = type. */
export const papercupFrameArb: fc.Arbitrary<Frame> = fc.oneof(
  fc.record({ text: textArb }).map((data) => frame('delta', data)),
  fc.record({ name: nameArb, input: optional(jsonArb), callId: idArb }).map((data) => frame('tool_call', compact(data))),
  fc
    .record({
      name: nameArb,
      callId: idArb,
      ok: fc.boolean(),
      summary: optional(textArb),
      blocks: optional(fc.array(blockArb, { maxLength: 3 })),
      error: optional(textArb),
    })
    .map((data) => frame('tool_result', compact(data))),
  fc
    .record({ engine: nameArb, model: nameArb, accountRoute: optional(fc.option(nameArb, { nil: null })) })
    .map((data) => frame('provenance', compact(data))),
  legacyCardArb.map((card) => frame('card', { card })),
  fc.record({ correlationId: idArb, resolution: optional(resolutionArb) }).map((data) => frame('card_closed', compact(data))),
  fc.record({ version: fc.nat(), snapshot: jsonArb }).map((data) => frame('state', data)),
  doneFieldsArb.map((data) => frame('done', data)),
  errorFieldsArb.map((data) => frame('error', data)),
  fc.record({ href: hrefArb }).map((data) => frame('navigate', data)),
);

/** `scout` frames of every event type, the type in `data.type`. */
export const scoutFrameArb: fc.Arbitrary<Frame> = fc.oneof(
  fc.record({ content: textArb }).map((data) => frame(undefined, { type: 'token', ...data })),
  fc
    .record({ tool: nameArb, callId: idArb, input: optional(jsonArb) })
    .map((data) => frame(undefined, compact({ type: 'tool_start', ...data }))),
  legacyCardArb.map((card) => frame(undefined, { type: 'card', card })),
  fc
    .record({ correlationId: idArb, resolution: optional(resolutionArb) })
    .map((data) => frame(undefined, compact({ type: 'card_closed', ...data }))),
  fc.record({ version: fc.nat(), snapshot: jsonArb }).map((data) => frame(undefined, { type: 'state', ...data })),
  fc.record({ href: hrefArb }).map((data) => frame(undefined, { type: 'navigate', ...data })),
  errorFieldsArb.map((data) => frame(undefined, { type: 'error', ...data })),
  doneFieldsArb.map((data) => frame(undefined, { type: 'done', ...data })),
);

/** The dotted dialect's four event shapes, the type in `data.kind`. */
export const dottedFrameArb: fc.Arbitrary<Frame> = fc.oneof(
  fc.record({ delta: textArb }).map((data) => frame(undefined, { kind: 'message.delta', ...data })),
  fc
    .record({ toolCallId: idArb, toolName: nameArb, args: optional(jsonArb) })
    .map((data) => frame(undefined, compact({ kind: 'tool.activity', ...data }))),
  fc
    .record({ toolCallId: idArb, toolName: nameArb, success: fc.boolean() })
    .map((data) => frame(undefined, { kind: 'tool.result', ...data })),
  fc.constant(frame(undefined, { kind: 'run.finished' })),
);

const EVENT_NAMES = [
  'session',
  'heartbeat',
  'resync',
  'delta',
  'tool_call',
  'tool_result',
  'provenance',
  'card',
  'card_closed',
  'state',
  'done',
  'error',
  'navigate',
  'message',
  'token',
  'tool_start',
  'products',
  'ping',
  'message.delta',
  'tool.result',
  '__proto__',
];
const TYPE_KEYS = ['type', 'kind'];

/** The JSON text of a valid frame of any dialect, a v1 envelope, or of one mutated. */
const plausibleDataArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      papercupFrameArb.map((value) => JSON.parse(value.data) as unknown),
      scoutFrameArb.map((value) => JSON.parse(value.data) as unknown),
      envelopeArb,
    ),
    fc.option(mutationArb, { nil: undefined }),
  )
  .map(([value, mutation]) => JSON.stringify(mutation === undefined ? value : mutate(value, mutation)) ?? 'null');

/** Any frame a broken or hostile producer could send, and values that are no frame at all. */
export const anyFrameArb: fc.Arbitrary<unknown> = fc.oneof(
  hostileValueArb,
  fc.record(
    {
      event: fc.oneof(fc.constantFrom(...EVENT_NAMES), fc.string(), hostileValueArb),
      data: fc.oneof(
        plausibleDataArb,
        fc.string(),
        fc.constantFrom('', '{}', '[]', 'null', '1e999', '{"__proto__":{"x":1}}', '{"type":"token","content":"\\u0000"}', '['.repeat(5000)),
        fc
          .dictionary(
            fc.constantFrom(...TYPE_KEYS, 'text', 'content', 'name', 'card', 'ok'),
            fc.oneof(fc.constantFrom(...EVENT_NAMES), hostileValueArb),
          )
          .map((value) => {
            try {
              return JSON.stringify(value) ?? '';
            } catch {
              return '';
            }
          }),
        hostileValueArb,
      ),
      id: fc.oneof(fc.string(), hostileValueArb),
    },
    { requiredKeys: [] },
  ),
);
