/** The card, scope and schemas the interaction tests share. */
import * as z from 'zod';
import { InteractionResolver, standardSchemaValidator, type InteractionSchemaRef, type InteractionScope } from '../src/index.js';
import type { StubStore } from './stub-store.js';

export const OPENED_AT = '2026-11-30T09:00:00Z';
export const BEFORE_EXPIRY = '2026-11-30T10:10:00+01:00'; // 09:10Z, written with an offset
export const AT_EXPIRY = '2026-11-30T09:30:00Z';

export const SCOPE: InteractionScope = {
  conversationId: 'conv_1',
  principalId: 'user_ana',
  tenantId: 'tenant_1',
  customerId: 'cust_1',
  publicOwnerId: null,
};

export const SCHEMA: InteractionSchemaRef = { id: 'refund-choice', revision: 3 };

export const CARD = {
  correlationId: 'card_refund_1',
  createdAt: OPENED_AT,
  prompt: 'Refund or replacement?',
  presentation: {
    kind: 'radio',
    options: [
      { id: 'refund', label: 'Refund' },
      { id: 'replace', label: 'Replacement' },
      { id: 'store-credit', label: 'Store credit' },
    ],
  },
  allowDecline: true,
} as const;

/** The pending record opening {@link CARD} at {@link OPENED_AT} stores. */
export const PENDING_RECORD = {
  recordVersion: 1,
  status: 'pending',
  correlationId: 'card_refund_1',
  card: CARD,
  schema: SCHEMA,
  expiresAt: AT_EXPIRY,
  scope: SCOPE,
  revision: 1,
  openedAt: OPENED_AT,
} as const;

/** The server-owned schemas by id and revision: revision 3 no longer offers store credit. */
const SCHEMAS = new Map<string, z.ZodType>([
  ['refund-choice@3', z.object({ optionId: z.enum(['refund', 'replace']) })],
  ['refund-choice@4', z.object({ optionId: z.enum(['refund']) })],
]);

export const validate = standardSchemaValidator(({ id, revision }) => SCHEMAS.get(`${id}@${revision}`));

export const key = (caller = 'ana') => ({ caller, conversationId: 'conv_1', correlationId: 'card_refund_1' });

/** A resolver over `stub`, and the card opened (checked). */
export async function openedResolver(stub: StubStore, options: { readonly validate?: typeof validate } = {}) {
  const resolver = new InteractionResolver<string>({ store: stub.store, validate: options.validate ?? validate });
  const opened = await resolver.open({ caller: 'ana', card: CARD, schema: SCHEMA, expiresAt: AT_EXPIRY, scope: SCOPE, at: OPENED_AT });
  if (!opened.ok || opened.outcome !== 'opened') throw new Error(JSON.stringify(opened));
  return resolver;
}
