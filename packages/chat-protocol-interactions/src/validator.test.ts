import * as v from 'valibot';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { BEFORE_EXPIRY, CARD, key, openedResolver } from '../test/fixtures.js';
import { createStubStore } from '../test/stub-store.js';
import { standardSchemaValidator, type InteractionSchemaRef } from './index.js';

// The same rule (refund or replace, never store credit) in four Standard Schema validators.
const isAllowed = (optionId: string) => optionId === 'refund' || optionId === 'replace';
const SCHEMAS = {
  'zod sync': z.object({ optionId: z.string().refine(isAllowed, 'not offered') }),
  'zod async': z.object({ optionId: z.string().refine(async (optionId) => isAllowed(optionId), 'not offered') }),
  'valibot sync': v.object({ optionId: v.pipe(v.string(), v.check(isAllowed, 'not offered')) }),
  'valibot async': v.objectAsync({
    optionId: v.pipeAsync(
      v.string(),
      v.checkAsync(async (optionId: string) => isAllowed(optionId), 'not offered'),
    ),
  }),
} as const;

describe.each(Object.entries(SCHEMAS))('a %s validator through standardSchemaValidator', (_, schema) => {
  const validate = standardSchemaValidator<typeof CARD>((ref: InteractionSchemaRef) =>
    ref.id === 'refund-choice' && ref.revision === 3 ? schema : undefined,
  );

  it('accepts a valid submission and stores the schema’s output', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub, { validate: validate as never });
    expect(await resolver.submit({ ...key(), value: { optionId: 'replace' }, at: BEFORE_EXPIRY })).toMatchObject({
      ok: true,
      outcome: 'submitted',
      record: { value: { optionId: 'replace' } },
    });
  });

  it('refuses an invalid one with its issue at the value’s path', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub, { validate: validate as never });
    expect(await resolver.submit({ ...key(), value: { optionId: 'store-credit' }, at: BEFORE_EXPIRY })).toEqual({
      ok: false,
      code: 'invalid-value',
      message: 'value.optionId: not offered',
      issues: [{ path: ['value', 'optionId'], message: 'not offered' }],
    });
    expect(stub.rows.get('conv_1/card_refund_1')).toMatchObject({ status: 'pending' });
  });

  it('says unknown-schema for a schema the lookup does not know', async () => {
    expect(validate({ schema: { id: 'refund-choice', revision: 9 }, card: CARD, value: {} })).toBeUndefined();
  });
});
