import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BLOCK_MODELS,
  CARD_APPROVAL_MODEL,
  CARD_MODEL,
  CARD_SCHEMA_REFERENCE_MODEL,
  ENVELOPE_MODEL,
  EVENT_MODELS,
  OPTION_MODEL,
  PRESENTATION_MODELS,
  SOURCE_MODEL,
  USAGE_MODEL,
  isOptionalField,
  type FieldModel,
} from '../../../../../test-support/v1-arbitraries.js';
import {
  CARD_KINDS,
  CardApprovalSchema,
  CardOptionSchema,
  CardPresentationV1Schema,
  OpenCardSnapshotV1Schema,
} from '../../cards/card-schemas.js';
import { ChatEventEnvelopeSchema } from '../envelope.js';
import { CHAT_EVENT_FIELDS, CHAT_EVENT_TYPES_V1 } from '../../events/event-fields.js';
import { ChatEventV1Schema, ChatResultBlockSchema, ChatSourceSchema, ChatUsageSchema } from '../../events/events.js';
import { isPlainTextEvent, isPlainToolResult } from './fast-paths.js';
import { RULE_TABLES } from './rule-tables.js';
import type { Rules } from './rules.js';
import { runs } from '../../../../../test-support/property-runs.js';

// The field list of every strict object lives in the zod schemas (the contract,
// and the JSON Schema), the hot-path validator's rule tables (which the
// encoder's allowlist is read from) and the test generators. The validator's
// tables are typed by the schemas' types; this file pins the rest at run time.

/** The schema's view of a zod/mini object, read through its definition. */
interface ZodNode {
  readonly _zod: {
    readonly optin?: 'optional';
    readonly def: {
      readonly type: string;
      readonly shape?: Readonly<Record<string, ZodNode>>;
      readonly options?: readonly ZodNode[];
      readonly innerType?: ZodNode;
      readonly values?: readonly unknown[];
    };
  };
}

/** The fields of a strict object: every key in declaration order, and those that may be left out, sorted. */
interface Fields {
  readonly keys: readonly string[];
  readonly optional: readonly string[];
}

function shapeOf(schema: ZodNode): Readonly<Record<string, ZodNode>> {
  const node = schema._zod.def.type === 'optional' ? (schema._zod.def.innerType as ZodNode) : schema;
  const { shape } = node._zod.def;
  if (shape === undefined) throw new Error(`not an object schema: ${node._zod.def.type}`);
  return shape;
}

function schemaFields(schema: ZodNode): Fields {
  const shape = shapeOf(schema);
  return {
    keys: Object.keys(shape),
    optional: Object.keys(shape)
      .filter((key) => shape[key]?._zod.optin === 'optional')
      .sort(),
  };
}

/** The variants of a discriminated union, by the literal value of `discriminator`. */
function variantsOf(union: ZodNode, discriminator: string): Record<string, ZodNode> {
  return Object.fromEntries(
    (union._zod.def.options ?? []).map((variant) => [String(shapeOf(variant)[discriminator]?._zod.def.values?.[0]), variant]),
  );
}

function validatorFields(rules: Rules): Fields {
  return { keys: rules.keys, optional: [...rules.optionalKeys].sort() };
}

function generatorFields(model: FieldModel): Fields {
  return {
    keys: Object.keys(model),
    optional: Object.keys(model)
      .filter((key) => isOptionalField(model[key] as FieldModel[string]))
      .sort(),
  };
}

const node = (schema: unknown): ZodNode => schema as ZodNode;
const events = variantsOf(node(ChatEventV1Schema), 'type');
const presentations = variantsOf(node(CardPresentationV1Schema), 'kind');
const blocks = variantsOf(node(ChatResultBlockSchema), 'kind');

/** Every strict object of the envelope: [name, schema, validator rules, generator model]. */
const OBJECTS: readonly (readonly [string, ZodNode, Rules, FieldModel])[] = [
  ['envelope', node(ChatEventEnvelopeSchema), RULE_TABLES.envelope, ENVELOPE_MODEL],
  ...CHAT_EVENT_TYPES_V1.map((type) => [`event ${type}`, events[type] as ZodNode, RULE_TABLES.events[type], EVENT_MODELS[type]] as const),
  ['card', node(OpenCardSnapshotV1Schema), RULE_TABLES.card, CARD_MODEL],
  [
    'card schema reference',
    shapeOf(node(OpenCardSnapshotV1Schema))['schema'] as ZodNode,
    RULE_TABLES.cardSchemaReference,
    CARD_SCHEMA_REFERENCE_MODEL,
  ],
  ['card option', node(CardOptionSchema), RULE_TABLES.cardOption, OPTION_MODEL],
  ['card approval', node(CardApprovalSchema), RULE_TABLES.cardApproval, CARD_APPROVAL_MODEL],
  ...CARD_KINDS.map(
    (kind) => [`presentation ${kind}`, presentations[kind] as ZodNode, RULE_TABLES.presentations[kind], PRESENTATION_MODELS[kind]] as const,
  ),
  ...(['text', 'data'] as const).map(
    (kind) => [`block ${kind}`, blocks[kind] as ZodNode, RULE_TABLES.blocks[kind], BLOCK_MODELS[kind]] as const,
  ),
  ['source', node(ChatSourceSchema), RULE_TABLES.source, SOURCE_MODEL],
  ['usage', node(ChatUsageSchema), RULE_TABLES.usage, USAGE_MODEL],
];

describe('one source of truth for the contract (issue 12): every strict object has the same fields everywhere', () => {
  it('covers every event type and every card kind, in each of the four places', () => {
    expect({
      schemaTypes: Object.keys(events),
      validatorTypes: Object.keys(RULE_TABLES.events),
      allowlistTypes: Object.keys(CHAT_EVENT_FIELDS),
      generatorTypes: Object.keys(EVENT_MODELS),
    }).toEqual({
      schemaTypes: CHAT_EVENT_TYPES_V1,
      validatorTypes: CHAT_EVENT_TYPES_V1,
      allowlistTypes: CHAT_EVENT_TYPES_V1,
      generatorTypes: CHAT_EVENT_TYPES_V1,
    });
    expect({
      schemaKinds: Object.keys(presentations),
      validatorKinds: Object.keys(RULE_TABLES.presentations),
      generatorKinds: Object.keys(PRESENTATION_MODELS),
    }).toEqual({ schemaKinds: CARD_KINDS, validatorKinds: CARD_KINDS, generatorKinds: CARD_KINDS });
    expect(Object.keys(blocks)).toEqual(Object.keys(RULE_TABLES.blocks));
  });

  it.each(OBJECTS)(
    '%s: the validator has the schema fields in the same order, optional exactly where the schema says; the generators draw every one',
    (_name, schema, rules, model) => {
      const expected = schemaFields(schema);
      const generated = generatorFields(model);
      expect({
        validator: validatorFields(rules),
        generators: { keys: [...generated.keys].sort(), optional: generated.optional },
      }).toEqual({ validator: expected, generators: { keys: [...expected.keys].sort(), optional: expected.optional } });
    },
  );

  it.each(CHAT_EVENT_TYPES_V1)('event %s: the encoder allowlist is the schema fields in wire order', (type) => {
    expect(CHAT_EVENT_FIELDS[type]).toEqual(schemaFields(events[type] as ZodNode).keys);
    expect(Object.isFrozen(CHAT_EVENT_FIELDS[type])).toBe(true);
  });
});

describe('the straight-line checks keep up with the tables (issue 12: parsing ahead of every peer)', () => {
  // A field added to the tables and generators but not to a straight-line check
  // stays correct (the tables decide) but slow: this fails instead.
  const toolResultsWithTextBlocks = fc
    .record(EVENT_MODELS.tool_result)
    .map((event) => JSON.parse(JSON.stringify(event)) as Record<string, unknown>)
    .filter((event) => ((event['blocks'] as { kind: string }[] | undefined) ?? []).every((block) => block.kind === 'text'));
  const textEvents = fc.oneof(fc.record(EVENT_MODELS.delta), fc.record(EVENT_MODELS.reasoning));

  it.each([false, true])('takes every generated delta and reasoning event (screened text: %s)', (screened) => {
    fc.assert(
      fc.property(textEvents, (event) => isPlainTextEvent(event, screened)),
      { numRuns: runs(2_000) },
    );
  });

  it.each([false, true])('takes every generated tool result whose blocks are text blocks (screened text: %s)', (screened) => {
    fc.assert(
      fc.property(toolResultsWithTextBlocks, (event) => isPlainToolResult(event, screened)),
      { numRuns: runs(2_000) },
    );
  });
});
