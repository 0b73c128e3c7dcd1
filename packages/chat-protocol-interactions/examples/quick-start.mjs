import { InteractionResolver, standardSchemaValidator } from '@papercusp/chat-protocol-interactions';
import * as z from 'zod';

// A toy store to show the contract: one record per card, transactions one at a time.
// A real store runs `transact` as one database transaction holding the card's row lock.
const rows = new Map();
let queue = Promise.resolve();
const authorityOf = (caller) =>
  caller === 'session-ana' ? { principalId: 'user_ana', tenantId: 'acme', customerId: 'cust_7', publicOwnerId: null } : null;
const store = {
  transact({ conversationId, correlationId, caller }, decide) {
    const key = `${conversationId}/${correlationId}`;
    const run = queue.then(() => {
      const decision = decide({ record: rows.get(key) ?? null, authority: authorityOf(caller) });
      if ('next' in decision) rows.set(key, decision.next); // with decision.transition, atomically
      return decision.result;
    });
    queue = run.catch(() => {});
    return run;
  },
  async read({ conversationId, correlationId, caller }) {
    return { record: rows.get(`${conversationId}/${correlationId}`) ?? null, authority: authorityOf(caller) };
  },
};

// Server-owned schemas, immutable per id and revision; any Standard Schema library works.
const schemas = new Map([['refund-choice@3', z.object({ optionId: z.enum(['refund', 'replace']) })]]);
const resolver = new InteractionResolver({
  store,
  validate: standardSchemaValidator(({ id, revision }) => schemas.get(`${id}@${revision}`)),
});

const card = {
  correlationId: 'card_refund_1',
  createdAt: '2026-11-30T09:00:00Z',
  prompt: 'Refund or replacement?',
  presentation: {
    kind: 'radio',
    options: [
      { id: 'refund', label: 'Refund' },
      { id: 'replace', label: 'Replacement' },
    ],
  },
};
const scope = { conversationId: 'conv_1', principalId: 'user_ana', tenantId: 'acme', customerId: 'cust_7', publicOwnerId: null };
await resolver.open({
  caller: 'session-ana',
  card,
  schema: { id: 'refund-choice', revision: 3 },
  expiresAt: '2026-11-30T09:30:00Z',
  scope,
  at: '2026-11-30T09:00:00Z',
});

const answer = (caller, response, at = '2026-11-30T09:05:00Z') => resolver.respond({ caller, conversationId: 'conv_1', response, at });
const show = (result) =>
  console.log(result.ok ? `${result.outcome}${result.replayed ? ' (replayed)' : ''}` : `${result.code}: ${result.message}`);

show(await answer('session-bo', { action: 'submit', correlationId: 'card_refund_1', value: { optionId: 'refund' } }));
show(await answer('session-ana', { action: 'submit', correlationId: 'card_refund_1', value: { optionId: 'refund' } }));
show(await answer('session-ana', { action: 'submit', correlationId: 'card_refund_1', value: { optionId: 'refund' } }));
show(await answer('session-ana', { action: 'decline', correlationId: 'card_refund_1' }));
console.log(JSON.stringify(rows.get('conv_1/card_refund_1').value));
