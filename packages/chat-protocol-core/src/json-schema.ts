/**
 * The JSON Schema (draft 2020-12) of the v1 envelope, generated from the zod
 * schemas. The committed copy, `schema/chat-event-envelope.v1.json`, is what
 * non-TypeScript producers validate against; a test fails when it drifts.
 */
import * as z from 'zod/mini';
import { ChatEventEnvelopeSchema } from './envelope.js';
import { SafeJsonObjectSchema } from './primitives.js';

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
    },
  }) as Record<string, unknown>;
}
