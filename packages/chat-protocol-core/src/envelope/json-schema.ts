/**
 * The JSON Schema (draft 2020-12) of the v1 envelope, generated from the zod
 * schemas. The committed copy, `schema/chat-event-envelope.v1.json`, is what
 * non-TypeScript producers validate against; a test fails when it drifts.
 */
import * as z from 'zod/v4/mini';
import { ChatEventEnvelopeSchema } from './envelope.js';
import { SafeJsonObjectSchema } from '../primitives/primitives.js';
import { EXTENSION_NAME, REPORT_LIMITS, ReportExtensionsSchema } from '../cards/report-block.js';

/**
 * Generates the envelope's JSON Schema. Rules a JSON Schema cannot state
 * (calendar-valid dates, well-formed Unicode, JSON depth, href safety) are
 * described in the contract and enforced by `parseChatEnvelope`.
 */
export function chatEventEnvelopeJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ChatEventEnvelopeSchema, {
    unrepresentable: 'any',
    io: 'input',
    override: (context) => {
      if (context.zodSchema === SafeJsonObjectSchema) context.jsonSchema['type'] = 'object';
      // A custom check is opaque to zod; state what JSON Schema can (the parser also refuses `constructor`, `prototype`).
      if (context.zodSchema === ReportExtensionsSchema) {
        Object.assign(context.jsonSchema, {
          type: 'object',
          minProperties: 1,
          maxProperties: REPORT_LIMITS.maxExtensions,
          propertyNames: { pattern: EXTENSION_NAME.source },
        });
      }
      // zod 4 writes a discriminated union as `oneOf`, zod 3.25 as `anyOf`; its options exclude each other, so the two
      // mean the same, and renaming keeps the schema byte-identical under both lines of the peer range.
      if ('discriminator' in context.zodSchema._zod.def && 'anyOf' in context.jsonSchema) {
        const entries = Object.entries(context.jsonSchema);
        for (const [key] of entries) delete context.jsonSchema[key];
        for (const [key, value] of entries) context.jsonSchema[key === 'anyOf' ? 'oneOf' : key] = value;
      }
    },
  }) as Record<string, unknown>;
}
