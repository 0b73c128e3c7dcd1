/**
 * fast-check arbitraries of valid v1 values, and of near-valid mutations of
 * them: the generators core's property tests draw from, and the legacy
 * adapter's too (its frames are drawn from these envelopes and values).
 */
import fc from 'fast-check';
import type { ChatEventEnvelope, ChatEventV1 } from '../packages/chat-protocol-core/src/index.js';

const ID_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-:.~!$%&*+/=?^|';
export const idArb = fc.array(fc.constantFrom(...ID_CHARS), { minLength: 1, maxLength: 24 }).map((chars) => chars.join(''));

/** Well-formed Unicode with tabs and newlines, emoji, quotes and tag-like text. */
export const textArb = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', 'a\nb\tc\r', '</ask> <report> &amp; "quoted" \\ \u2028', '😀👍🏽', '\u00e9\u0301'),
);
export const nameArb = textArb.filter((text) => text.length > 0 && text.length <= 256);

export const timestampArb = fc
  .tuple(
    fc.integer({ min: 1970, max: 2100 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 28 }),
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 59 }),
    fc.constantFrom('', '.1', '.123', '.123456789'),
    fc.constantFrom('Z', '+00:00', '+05:30', '-08:00', '+14:00'),
  )
  .map(([year, month, day, hour, minute, second, fraction, zone]) => {
    const two = (value: number) => String(value).padStart(2, '0');
    return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}${fraction}${zone}`;
  });

const jsonLeafArb = fc.oneof(fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), textArb);
const jsonKeyArb = textArb.filter((key) => !['__proto__', 'constructor', 'prototype'].includes(key));
export const jsonArb: fc.Arbitrary<unknown> = fc
  .letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, jsonLeafArb, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(jsonKeyArb, tie('value'), { maxKeys: 4 }),
  }))
  .value.map((value) => JSON.parse(JSON.stringify(value)) as unknown);
export const jsonObjectArb = fc
  .dictionary(jsonKeyArb, jsonArb, { maxKeys: 4 })
  .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);

// The generators are written as field models, one record of arbitraries per
// strict object of the contract, so `contract-fields.test.ts` can compare their
// keys (and which of them may be left out) with the schemas and the validator.

/** One generator per field of a strict object; the record `fc.record` draws from. */
export type FieldModel = Readonly<Record<string, fc.Arbitrary<unknown>>>;

const OPTIONAL_FIELDS = new WeakSet<fc.Arbitrary<unknown>>();
/** Sometimes the value, sometimes left out (compact() drops it): an optional field. */
const optional = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => {
  const field = fc.option(arb, { nil: undefined });
  OPTIONAL_FIELDS.add(field);
  return field;
};
/** True when a field model's generator may leave its field out. */
export const isOptionalField = (arb: fc.Arbitrary<unknown>): boolean => OPTIONAL_FIELDS.has(arb);

/** Drops keys whose value is undefined, as JSON does. */
const compact = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
const recordOf = (model: FieldModel) => fc.record(model).map(compact);

/** The field model of `done.usage`: counts and a non-negative cost (-0 is left out: JSON writes it as 0). */
export const USAGE_MODEL = {
  inputTokens: optional(fc.nat()),
  outputTokens: optional(fc.nat()),
  totalTokens: optional(fc.maxSafeNat()),
  costUsd: optional(fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }).filter((cost) => !Object.is(cost, -0))),
} satisfies FieldModel;

/** A valid `done.usage`. */
export const usageArb = /* @__PURE__ */ recordOf(USAGE_MODEL);

/** The field model of a block's source. */
export const SOURCE_MODEL = { ref: nameArb, label: optional(nameArb) } satisfies FieldModel;
const sourcesArb = optional(fc.array(recordOf(SOURCE_MODEL), { maxLength: 3 }));
/** The field model of each result block kind. */
export const BLOCK_MODELS = {
  text: { kind: fc.constant('text' as const), text: textArb, sources: sourcesArb },
  data: { kind: fc.constant('data' as const), data: jsonArb, sources: sourcesArb },
} satisfies Record<string, FieldModel>;
export const blockArb = fc.oneof(recordOf(BLOCK_MODELS.text), recordOf(BLOCK_MODELS.data));

/** The field model of a card option. */
export const OPTION_MODEL = {
  id: idArb,
  label: nameArb,
  description: optional(textArb),
  hint: optional(textArb),
  style: optional(fc.constantFrom('default', 'primary', 'danger')),
} satisfies FieldModel;
const optionsArb = fc.uniqueArray(recordOf(OPTION_MODEL) as fc.Arbitrary<{ id: string }>, {
  minLength: 1,
  maxLength: 4,
  selector: (option) => option.id,
});
const dateArb = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
/** The field model of each base presentation kind. */
export const PRESENTATION_MODELS = {
  text: {
    kind: fc.constant('text'),
    voiceAnswerable: optional(fc.boolean()),
    placeholder: optional(textArb),
    multiline: optional(fc.boolean()),
    minLength: optional(fc.nat(10)),
    maxLength: optional(fc.integer({ min: 1, max: 10 })),
  },
  radio: { kind: fc.constant('radio'), voiceAnswerable: optional(fc.boolean()), options: optionsArb },
  select: { kind: fc.constant('select'), voiceAnswerable: optional(fc.boolean()), options: optionsArb, placeholder: optional(textArb) },
  checkbox: {
    kind: fc.constant('checkbox'),
    voiceAnswerable: optional(fc.boolean()),
    options: optionsArb,
    minSelected: optional(fc.nat(4)),
    maxSelected: optional(fc.nat(4)),
  },
  confirm: {
    kind: fc.constant('confirm'),
    voiceAnswerable: optional(fc.boolean()),
    confirmLabel: optional(nameArb),
    rejectLabel: optional(nameArb),
  },
  date: { kind: fc.constant('date'), voiceAnswerable: optional(fc.boolean()), min: optional(dateArb), max: optional(dateArb) },
  slider: {
    kind: fc.constant('slider'),
    voiceAnswerable: optional(fc.boolean()),
    min: fc.integer({ min: -100, max: 0 }),
    max: fc.integer({ min: 1, max: 100 }),
    step: optional(fc.constantFrom(0.5, 1, 5)),
    unit: optional(nameArb.filter((unit) => unit.length <= 32)),
  },
} satisfies Record<string, FieldModel>;
type Drawn = Record<string, unknown> & { options?: readonly unknown[] };
const numberAt = (value: Drawn, key: string): number | undefined => value[key] as number | undefined;
const stringAt = (value: Drawn, key: string): string | undefined => value[key] as string | undefined;
// Bounds are drawn freely, so some cards break the cross-field rules: those are
// filtered out here and left for the mutation tests to produce on purpose.
const PRESENTATION_HOLDS: { readonly [Kind in keyof typeof PRESENTATION_MODELS]?: (presentation: Drawn) => boolean } = {
  text: (presentation) => (numberAt(presentation, 'minLength') ?? 0) <= (numberAt(presentation, 'maxLength') ?? Infinity),
  checkbox: (presentation) => {
    const count = presentation.options?.length ?? 0;
    const maxSelected = numberAt(presentation, 'maxSelected');
    return (maxSelected ?? 0) <= count && (numberAt(presentation, 'minSelected') ?? 0) <= (maxSelected ?? count);
  },
  date: (presentation) => {
    const [min, max] = [stringAt(presentation, 'min'), stringAt(presentation, 'max')];
    return min === undefined || max === undefined || min <= max;
  },
};
const presentationArb = fc.oneof(
  ...Object.entries(PRESENTATION_MODELS).map(([kind, model]) =>
    recordOf(model).filter(PRESENTATION_HOLDS[kind as keyof typeof PRESENTATION_MODELS] ?? (() => true)),
  ),
);
/** The field model of a card's `schema` reference. */
export const CARD_SCHEMA_REFERENCE_MODEL = { id: idArb, revision: fc.nat() } satisfies FieldModel;
/** The field model of a tool-approval card's content. */
export const CARD_APPROVAL_MODEL = { title: nameArb, question: nameArb, body: fc.array(textArb, { maxLength: 3 }) } satisfies FieldModel;
const reportTextArb = fc.constantFrom('Ship 0.1.0', 'P-003', 'wip', 'needs-human', 'plan:issue-13', 'Überprüfen ✓', 'a <b> & "c"');
const reportItemArb = recordOf({
  id: optional(reportTextArb),
  text: reportTextArb,
  status: optional(reportTextArb),
  ref: optional(reportTextArb),
});
const reportPlanArb = recordOf({
  slug: optional(reportTextArb),
  title: reportTextArb,
  status: optional(reportTextArb),
  summary: optional(reportTextArb),
  items: optional(fc.array(reportItemArb, { minLength: 1, maxLength: 3 })),
});
/** A valid report block (core's ReportBlockSchema), as a card's body. */
export const reportBlockArb = recordOf({ title: optional(reportTextArb), plans: fc.array(reportPlanArb, { minLength: 1, maxLength: 2 }) });
/** The field model of an open card. */
export const CARD_MODEL = {
  correlationId: idArb,
  createdAt: fc.constant('2026-11-29T12:00:00Z'),
  expiresAt: optional(fc.constantFrom('2026-11-29T13:00:00-01:30', '2026-11-29T12:00:00.000000001Z', '2026-11-29T12:30:00+00:15')),
  schema: optional(fc.record(CARD_SCHEMA_REFERENCE_MODEL)),
  prompt: nameArb,
  presentation: optional(presentationArb),
  fallbackText: optional(textArb),
  details: optional(textArb),
  allowDecline: optional(fc.boolean()),
  timeoutMs: optional(fc.integer({ min: 1, max: 604_800_000 })),
  approval: optional(recordOf(CARD_APPROVAL_MODEL)),
  report: optional(reportBlockArb),
  dataSchemaJson: optional(jsonObjectArb),
} satisfies FieldModel;
export const cardArb = recordOf(CARD_MODEL);

/** The field model of each v1 event type. */
export const EVENT_MODELS = {
  user_input: {
    type: fc.constant('user_input'),
    text: nameArb.filter((text) => text.length > 0),
    source: optional(fc.constantFrom('text_typed', 'voice_stt', 'system')),
  },
  delta: { type: fc.constant('delta'), text: textArb },
  reasoning: { type: fc.constant('reasoning'), text: textArb },
  tool_call: { type: fc.constant('tool_call'), callId: idArb, name: nameArb, input: optional(jsonArb) },
  tool_result: {
    type: fc.constant('tool_result'),
    callId: idArb,
    name: nameArb,
    status: fc.constantFrom('succeeded', 'failed', 'cancelled', 'needs-reconciliation'),
    summary: optional(textArb),
    blocks: optional(fc.array(blockArb, { maxLength: 3 })),
    error: optional(textArb),
  },
  provenance: {
    type: fc.constant('provenance'),
    engine: nameArb,
    model: nameArb,
    accountRoute: optional(fc.option(nameArb, { nil: null })),
  },
  card: { type: fc.constant('card'), card: cardArb },
  card_closed: {
    type: fc.constant('card_closed'),
    correlationId: idArb,
    resolution: optional(fc.constantFrom('submitted', 'declined', 'cancelled', 'expired', 'interrupted')),
  },
  state: { type: fc.constant('state'), version: fc.nat(), snapshot: jsonArb },
  navigate: {
    type: fc.constant('navigate'),
    href: fc.constantFrom('/', '/a/b?c=d#e', 'https://example.com', 'https://a.example:8443/x?y#z'),
  },
  done: {
    type: fc.constant('done'),
    status: fc.constantFrom('completed', 'cancelled', 'interrupted', 'needs-reconciliation'),
    stopReason: optional(nameArb),
    usage: optional(recordOf(USAGE_MODEL)),
    awaiting: optional(fc.uniqueArray(idArb, { minLength: 1, maxLength: 3 })),
  },
  // retryAfterMs is only valid with retryable: true, so a drawn one goes with a refusal to retry.
  error: {
    type: fc.constant('error'),
    code: idArb,
    message: nameArb,
    retryable: fc.boolean(),
    retryAfterMs: optional(fc.integer({ min: 0, max: 86_400_000 })),
  },
} satisfies Record<string, FieldModel>;
const dropRetryAfterUnlessRetryable = (event: Drawn): Drawn =>
  event['type'] === 'error' && event['retryable'] !== true ? compact({ ...event, retryAfterMs: undefined }) : event;

/** A valid event of every v1 type. */
export const eventArb: fc.Arbitrary<ChatEventV1> = fc.oneof(
  ...Object.values(EVENT_MODELS).map((model) => recordOf(model).map(dropRetryAfterUnlessRetryable)),
) as fc.Arbitrary<ChatEventV1>;

/** The field model of the envelope. */
export const ENVELOPE_MODEL = {
  schemaVersion: fc.constant(1 as const),
  conversationId: idArb,
  turnId: idArb,
  eventId: idArb,
  seq: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  occurredAt: timestampArb,
  event: eventArb,
} satisfies FieldModel;
/** A valid envelope of any event type. */
export const envelopeArb: fc.Arbitrary<ChatEventEnvelope> = fc.record(ENVELOPE_MODEL) as fc.Arbitrary<ChatEventEnvelope>;

/** Any JavaScript value a careless or hostile caller could pass: boxed values, Maps, BigInts, sparse arrays, null prototypes. */
export const hostileValueArb = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

/** Values that sit at or just past a v1 rule. */
const TRICKY_VALUES: readonly unknown[] = [
  '',
  ' ',
  'x',
  'a b',
  'x'.repeat(257),
  'a\u0000',
  'a\u001f',
  '\ud800',
  '\udc00x',
  'tür',
  0,
  -1,
  1,
  1.5,
  2 ** 53,
  -0,
  86_400_001,
  null,
  true,
  false,
  [],
  {},
  [1],
  { a: 1 },
  '2026-02-29T00:00:00Z',
  '2024-02-29T00:00:00Z',
  '2026-11-29T12:00:00',
  '2026-11-29T12:00:00-00:00',
  'javascript:x',
  '//evil',
  '/ok',
  'https://ok.example',
  'https://u@evil.example',
  'succeeded',
  'completed',
  'failed',
  'submitted',
  'text',
  'data',
  'radio',
  'delta',
  'error',
  'checkbox',
  'date',
  'slider',
  'confirm',
  'select',
  0.5,
  4,
  5,
  100,
  -100,
  604_800_000,
  604_800_001,
  65_536,
  65_537,
  'a'.repeat(32),
  'a'.repeat(33),
  'a'.repeat(1_025),
  '2026-01-01',
  '2024-02-29',
  '2026-02-29',
  '9999-12-31',
  '2026-11-29T12:00:00Z',
  '2026-11-29T11:59:59.999999999Z',
  '2026-11-29T12:00:00.000000001Z',
  '2026-11-29T13:00:00+01:00',
];
const trickyValueArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...TRICKY_VALUES),
  fc.anything({ maxDepth: 2 }).map((value) => {
    try {
      return JSON.parse(JSON.stringify(value)) as unknown;
    } catch {
      return null;
    }
  }),
);

type Mutation = {
  readonly kind: 'delete' | 'replace' | 'add' | 'copy';
  readonly pick: number;
  readonly value: unknown;
  readonly key: string;
};

/**
 * Applies one mutation at a pseudo-randomly picked place of a JSON value (returns
 * a copy): delete a key or item, replace it with a tricky value, add a key, or
 * copy a sibling (duplicate an array item; give one key another key's value).
 */
export function mutate(value: unknown, mutation: Mutation): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  const containers: (Record<string, unknown> | unknown[])[] = [];
  const walk = (node: unknown) => {
    if (typeof node === 'object' && node !== null) {
      containers.push(node as Record<string, unknown>);
      for (const child of Object.values(node)) walk(child);
    }
  };
  walk(copy);
  const target = containers[mutation.pick % containers.length];
  if (target === undefined) return copy;
  const keys = Object.keys(target);
  const key = keys[Math.floor(mutation.pick / 7919) % Math.max(keys.length, 1)];
  if (mutation.kind === 'copy') {
    if (Array.isArray(target)) {
      if (target.length > 0) target.push(JSON.parse(JSON.stringify(target[mutation.pick % target.length])));
    } else if (key !== undefined && keys.length > 1) {
      const source = keys[Math.floor(mutation.pick / 104_729) % keys.length] as string;
      target[key] = JSON.parse(JSON.stringify(target[source])) as unknown;
    }
  } else if (Array.isArray(target)) {
    if (mutation.kind === 'add') target.push(mutation.value);
    else if (key !== undefined && mutation.kind === 'replace') target[Number(key)] = mutation.value;
    else if (key !== undefined) target.splice(Number(key), 1);
  } else if (mutation.kind === 'add') {
    Object.defineProperty(target, mutation.key, { value: mutation.value, enumerable: true, configurable: true, writable: true });
  } else if (key !== undefined && mutation.kind === 'replace') {
    target[key] = mutation.value;
  } else if (key !== undefined) {
    delete target[key];
  }
  return copy;
}

export const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('delete', 'replace', 'replace', 'add', 'copy'),
  pick: fc.nat(),
  value: trickyValueArb,
  key: fc.constantFrom(
    'extra',
    '__proto__',
    'constructor',
    'type',
    'text',
    'sources',
    'label',
    'expiresAt',
    'timeoutMs',
    'minSelected',
    'maxSelected',
    'minLength',
    'maxLength',
    'min',
    'max',
    'step',
  ),
});

/**
 * Every single-step mutation of a JSON value: at each object or array, delete
 * each key or item, replace it with each of {@link TRICKY_VALUES}, give it each
 * sibling's value, add an unknown key, and duplicate each array item.
 */
export function* neighbours(value: unknown): Generator<unknown> {
  const clone = () => JSON.parse(JSON.stringify(value)) as unknown;
  const containerPaths: (string | number)[][] = [];
  const walk = (node: unknown, path: (string | number)[]) => {
    if (typeof node !== 'object' || node === null) return;
    containerPaths.push(path);
    for (const [key, child] of Object.entries(node)) walk(child, [...path, Array.isArray(node) ? Number(key) : key]);
  };
  walk(value, []);
  const at = (root: unknown, path: (string | number)[]) =>
    path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root) as Record<string, unknown> | unknown[];
  for (const path of containerPaths) {
    const keys = Object.keys(at(value, path));
    const isArray = Array.isArray(at(value, path));
    for (const key of keys) {
      const deleted = clone();
      const target = at(deleted, path);
      if (Array.isArray(target)) target.splice(Number(key), 1);
      else delete target[key];
      yield deleted;
      for (const replacement of [...TRICKY_VALUES, ...keys.map((sibling) => (at(value, path) as Record<string, unknown>)[sibling])]) {
        const replaced = clone();
        (at(replaced, path) as Record<string, unknown>)[key] = JSON.parse(JSON.stringify(replacement ?? null)) as unknown;
        yield replaced;
      }
      if (isArray) {
        const duplicated = clone();
        const array = at(duplicated, path) as unknown[];
        array.push(JSON.parse(JSON.stringify(array[Number(key)])));
        yield duplicated;
      }
    }
    if (!isArray) {
      const added = clone();
      (at(added, path) as Record<string, unknown>)['extra'] = 1;
      yield added;
    }
  }
}
