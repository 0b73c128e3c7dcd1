/** fast-check arbitraries of valid v1 values, and of near-valid mutations of them. */
import fc from 'fast-check';
import type { ChatEventEnvelope, ChatEventV1 } from '../src/index.js';

const ID_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-:.~!$%&*+/=?^|';
export const idArb = fc
  .array(fc.constantFrom(...ID_CHARS), { minLength: 1, maxLength: 24 })
  .map((chars) => chars.join(''));

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
export const jsonArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, jsonLeafArb, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(jsonKeyArb, tie('value'), { maxKeys: 4 }),
})).value.map((value) => JSON.parse(JSON.stringify(value)) as unknown);
export const jsonObjectArb = fc
  .dictionary(jsonKeyArb, jsonArb, { maxKeys: 4 })
  .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Drops keys whose value is undefined, as JSON does. */
const compact = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;

const sourceArb = fc.record({ ref: nameArb, label: optional(nameArb) }).map(compact);
export const blockArb = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), text: textArb, sources: optional(fc.array(sourceArb, { maxLength: 3 })) }).map(compact),
  fc.record({ kind: fc.constant('data' as const), data: jsonArb, sources: optional(fc.array(sourceArb, { maxLength: 3 })) }).map(compact),
);

const optionsArb = fc.uniqueArray(
  fc.record({ id: idArb, label: nameArb, description: optional(textArb) }).map(compact),
  { minLength: 1, maxLength: 4, selector: (option) => option.id },
);
const dateArb = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
// Bounds are drawn freely, so some cards break the cross-field rules: those are
// filtered out here and left for the mutation tests to produce on purpose.
const presentationArb = fc.oneof(
  fc.record({ kind: fc.constant('text'), placeholder: optional(textArb), multiline: optional(fc.boolean()), minLength: optional(fc.nat(10)), maxLength: optional(fc.integer({ min: 1, max: 10 })) })
    .map(compact)
    .filter((presentation) => (presentation.minLength ?? 0) <= (presentation.maxLength ?? Infinity)),
  optionsArb.map((options) => ({ kind: 'radio', options })),
  optionsArb.map((options) => ({ kind: 'select', options })),
  fc.record({ kind: fc.constant('checkbox'), options: optionsArb, minSelected: optional(fc.nat(4)), maxSelected: optional(fc.nat(4)) })
    .map(compact)
    .filter(
      (presentation) =>
        (presentation.maxSelected ?? 0) <= presentation.options.length &&
        (presentation.minSelected ?? 0) <= (presentation.maxSelected ?? presentation.options.length),
    ),
  fc.record({ kind: fc.constant('confirm'), confirmLabel: optional(nameArb), rejectLabel: optional(nameArb) }).map(compact),
  fc.record({ kind: fc.constant('date'), min: optional(dateArb), max: optional(dateArb) })
    .map(compact)
    .filter((presentation) => presentation.min === undefined || presentation.max === undefined || presentation.min <= presentation.max),
  fc.record({ kind: fc.constant('slider'), min: fc.integer({ min: -100, max: 0 }), max: fc.integer({ min: 1, max: 100 }), step: optional(fc.constantFrom(0.5, 1, 5)), unit: optional(nameArb.filter((unit) => unit.length <= 32)) }).map(compact),
);
export const cardArb = fc
  .record({
    correlationId: idArb,
    createdAt: fc.constant('2026-11-29T12:00:00Z'),
    expiresAt: optional(fc.constantFrom('2026-11-29T13:00:00-01:30', '2026-11-29T12:00:00.000000001Z', '2026-11-29T12:30:00+00:15')),
    schema: optional(fc.record({ id: idArb, revision: fc.nat() })),
    prompt: nameArb,
    presentation: presentationArb,
    fallbackText: optional(textArb),
    details: optional(textArb),
    allowDecline: optional(fc.boolean()),
    timeoutMs: optional(fc.integer({ min: 1, max: 604_800_000 })),
  })
  .map(compact);

/** A valid event of every v1 type. */
export const eventArb: fc.Arbitrary<ChatEventV1> = fc.oneof(
  fc.record({ type: fc.constant('delta'), text: textArb }),
  fc.record({ type: fc.constant('reasoning'), text: textArb }),
  fc.record({ type: fc.constant('tool_call'), callId: idArb, name: nameArb, input: optional(jsonObjectArb) }).map(compact),
  fc
    .record({
      type: fc.constant('tool_result'),
      callId: idArb,
      name: nameArb,
      status: fc.constantFrom('succeeded', 'failed', 'cancelled', 'needs-reconciliation'),
      summary: optional(textArb),
      blocks: optional(fc.array(blockArb, { maxLength: 3 })),
      error: optional(textArb),
    })
    .map(compact),
  fc.record({ type: fc.constant('provenance'), engine: nameArb, model: nameArb, accountRoute: optional(fc.option(nameArb, { nil: null })) }).map(compact),
  fc.record({ type: fc.constant('card'), card: cardArb }),
  fc.record({ type: fc.constant('card_closed'), correlationId: idArb, resolution: optional(fc.constantFrom('submitted', 'declined', 'cancelled', 'expired', 'interrupted')) }).map(compact),
  fc.record({ type: fc.constant('state'), version: fc.nat(), snapshot: jsonArb }),
  fc.record({ type: fc.constant('navigate'), href: fc.constantFrom('/', '/a/b?c=d#e', 'https://example.com', 'https://a.example:8443/x?y#z') }),
  fc.record({ type: fc.constant('done'), status: fc.constantFrom('completed', 'cancelled', 'interrupted', 'needs-reconciliation'), stopReason: optional(nameArb), usage: optional(jsonObjectArb) }).map(compact),
  fc.oneof(
    fc.record({ type: fc.constant('error'), code: idArb, message: nameArb, retryable: fc.constant(true), retryAfterMs: optional(fc.integer({ min: 0, max: 86_400_000 })) }).map(compact),
    fc.record({ type: fc.constant('error'), code: idArb, message: nameArb, retryable: fc.constant(false) }),
  ),
) as fc.Arbitrary<ChatEventV1>;

/** A valid envelope of any event type. */
export const envelopeArb: fc.Arbitrary<ChatEventEnvelope> = fc.record({
  schemaVersion: fc.constant(1 as const),
  conversationId: idArb,
  turnId: idArb,
  eventId: idArb,
  seq: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  occurredAt: timestampArb,
  event: eventArb,
});

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
    '', ' ', 'x', 'a b', 'x'.repeat(257), 'a\u0000', 'a\u001f', '\ud800', '\udc00x', 'tür',
    0, -1, 1, 1.5, 2 ** 53, -0, 86_400_001, null, true, false, [], {}, [1], { a: 1 },
    '2026-02-29T00:00:00Z', '2024-02-29T00:00:00Z', '2026-11-29T12:00:00', '2026-11-29T12:00:00-00:00',
    'javascript:x', '//evil', '/ok', 'https://ok.example', 'https://u@evil.example',
    'succeeded', 'completed', 'failed', 'submitted', 'text', 'data', 'radio', 'delta', 'error',
    'checkbox', 'date', 'slider', 'confirm', 'select', 0.5, 4, 5, 100, -100, 604_800_000, 604_800_001, 65_536, 65_537,
    'a'.repeat(32), 'a'.repeat(33), 'a'.repeat(1_025), '2026-01-01', '2024-02-29', '2026-02-29', '9999-12-31',
    '2026-11-29T12:00:00Z', '2026-11-29T11:59:59.999999999Z', '2026-11-29T12:00:00.000000001Z', '2026-11-29T13:00:00+01:00',
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
  key: fc.constantFrom('extra', '__proto__', 'constructor', 'type', 'text', 'sources', 'label', 'expiresAt', 'timeoutMs', 'minSelected', 'maxSelected', 'minLength', 'maxLength', 'min', 'max', 'step'),
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
