/**
 * The host side of the interaction tests: one card, its scope and schemas,
 * and fresh workers (new resolvers on new connections to one fake database)
 * whose store calls and validations answer when fast-check's scheduler says.
 */
import type { Scheduler } from 'fast-check';
import { InteractionResolver, standardSchemaValidator, type InteractionScope } from '@papercusp/chat-protocol-interactions';
import * as z from 'zod';
import { createFakeDatabase, createFakeInteractionStore, type FakeDatabase } from '../src/index.js';
import { scheduleInteractionStore } from '../src/races.js';

export const OPENED_AT = '2026-11-30T09:00:00Z';
export const BEFORE_EXPIRY = '2026-11-30T09:10:00Z';
export const AT_EXPIRY = '2026-11-30T09:30:00Z';
export const CONVERSATION_ID = 'conv_1';
export const CORRELATION_ID = 'card_refund_1';
export const ANA = 'session-ana';

export const SCOPE: InteractionScope = {
  conversationId: CONVERSATION_ID,
  principalId: 'user_ana',
  tenantId: 'tenant_1',
  customerId: null,
  publicOwnerId: null,
};

export const CARD = {
  correlationId: CORRELATION_ID,
  createdAt: OPENED_AT,
  prompt: 'Refund or replacement?',
  presentation: {
    kind: 'radio',
    options: [
      { id: 'refund', label: 'Refund' },
      { id: 'replace', label: 'Replacement' },
    ],
  },
  allowDecline: true,
} as const;

const SCHEMAS = new Map<string, z.ZodType>([
  ['refund-choice@3', z.object({ optionId: z.enum(['refund', 'replace']) })],
  ['refund-choice@4', z.object({ optionId: z.enum(['refund']) })],
]);
export const validate = standardSchemaValidator(({ id, revision }) => SCHEMAS.get(`${id}@${revision}`));

export const key = { caller: ANA, conversationId: CONVERSATION_ID, correlationId: CORRELATION_ID } as const;

/** A database with the card opened by an unscheduled worker, and Ana's authority granted. */
export async function openedDatabase(
  options: { readonly scheduler?: Scheduler } = {},
): Promise<{ database: FakeDatabase; racing: () => void }> {
  let racing = false;
  const { scheduler } = options;
  const database = createFakeDatabase(
    scheduler === undefined ? {} : { pause: () => (racing ? scheduler.schedule(Promise.resolve(), 'fence pause') : undefined) },
  );
  const setup = createFakeInteractionStore(database);
  setup.setAuthority(CONVERSATION_ID, ANA, { principalId: 'user_ana', tenantId: 'tenant_1', customerId: null, publicOwnerId: null });
  const opened = await new InteractionResolver<string>({ store: setup, validate }).open({
    caller: ANA,
    card: CARD,
    schema: { id: 'refund-choice', revision: 3 },
    expiresAt: AT_EXPIRY,
    scope: SCOPE,
    at: OPENED_AT,
  });
  if (!opened.ok || opened.outcome !== 'opened') throw new Error(JSON.stringify(opened));
  return { database, racing: () => (racing = true) };
}

/** A fresh worker: a new resolver on a new connection; with a scheduler, its store calls and validations are scheduled. */
export function worker(database: FakeDatabase, scheduler?: Scheduler): InteractionResolver<string> {
  const store = createFakeInteractionStore(database);
  if (scheduler === undefined) return new InteractionResolver<string>({ store, validate });
  return new InteractionResolver<string>({
    store: scheduleInteractionStore(store, scheduler),
    validate: async (request) => scheduler.schedule(Promise.resolve(validate(request)), 'validated'),
  });
}
