import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chatEventEnvelopeJsonSchema } from './json-schema.js';

const COMMITTED = new URL('../../schema/chat-event-envelope.v1.json', import.meta.url);

describe('the committed JSON Schema (DESIGN §3.4)', () => {
  it('equals the schema generated from the zod schemas (run `pnpm schema` after changing them)', () => {
    const generated = `${JSON.stringify(chatEventEnvelopeJsonSchema(), null, 2)}\n`;
    if (process.env['UPDATE_JSON_SCHEMA'] === '1') writeFileSync(COMMITTED, generated);
    expect(readFileSync(COMMITTED, 'utf8')).toBe(generated);
  });

  it('states the strict envelope: schemaVersion 1, no additional properties, every event type', () => {
    const schema = chatEventEnvelopeJsonSchema() as {
      properties: Record<
        string,
        { const?: unknown; oneOf?: { properties: { type: { const: string } } }[]; anyOf?: { properties: { type: { const: string } } }[] }
      >;
      additionalProperties: unknown;
      required: string[];
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties['schemaVersion']?.const).toBe(1);
    expect(schema.required).toEqual(['schemaVersion', 'conversationId', 'turnId', 'eventId', 'seq', 'occurredAt', 'event']);
    const variants = schema.properties['event']?.oneOf ?? schema.properties['event']?.anyOf ?? [];
    expect(variants.map((variant) => variant.properties.type.const)).toEqual([
      'user_input',
      'delta',
      'reasoning',
      'tool_call',
      'tool_result',
      'provenance',
      'card',
      'card_closed',
      'state',
      'navigate',
      'done',
      'error',
    ]);
  });
});
