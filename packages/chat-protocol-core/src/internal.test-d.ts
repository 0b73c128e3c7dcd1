import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { exactOptional, refuse, type CustomIssue, type ExactOptional } from './internal.js';
import type { ChatRefusal } from './index.js';

describe('the internal subpath: types the @papercusp packages build on', () => {
  it('exports the exact-object helper types beside their builders', () => {
    const schema = z.string();
    expectTypeOf(exactOptional(schema)).toEqualTypeOf<ExactOptional<typeof schema>>();
    expectTypeOf<CustomIssue['message']>().toEqualTypeOf<string>();
  });

  it('refuse returns the shared refusal shape with the literal code', () => {
    expectTypeOf(refuse('invalid-thing', 'why')).toEqualTypeOf<ChatRefusal<'invalid-thing'>>();
  });
});
