/**
 * A small in-memory stand-in for a host's interaction store, for the package's
 * fast unit tests: one map, transactions run one at a time, and faults a test
 * queues by hand. The testkit's fake store is the full reference (fences per
 * key, restarts, seeded faults, fresh workers) that the race tests run on.
 */
import type { OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { InteractionAuthority, InteractionStore, InteractionTransition } from '../src/index.js';

/** Faults for the next calls: `fail` before commit, `lose-ack` after it. */
interface StubFaults {
  transact: ('fail' | 'lose-ack')[];
  read: 'fail'[];
}

export interface StubStore {
  readonly store: InteractionStore<OpenCardSnapshotV1, string>;
  readonly rows: Map<string, unknown>;
  readonly transitions: InteractionTransition[];
  readonly faults: StubFaults;
  readonly calls: { transact: number; read: number; decide: number };
}

const AUTHORITIES: Readonly<Record<string, InteractionAuthority>> = {
  ana: { principalId: 'user_ana', tenantId: 'tenant_1', customerId: 'cust_1', publicOwnerId: null },
  bo: { principalId: 'user_bo', tenantId: 'tenant_1', customerId: 'cust_1', publicOwnerId: null },
  'ana-other-tenant': { principalId: 'user_ana', tenantId: 'tenant_2', customerId: 'cust_1', publicOwnerId: null },
  'ana-other-customer': { principalId: 'user_ana', tenantId: 'tenant_1', customerId: 'cust_2', publicOwnerId: null },
  'ana-shared': { principalId: 'user_ana', tenantId: 'tenant_1', customerId: 'cust_1', publicOwnerId: 'owner_9' },
};

const keyOf = (request: { readonly conversationId: string; readonly correlationId: string }) =>
  `${request.conversationId}/${request.correlationId}`;

export function createStubStore(): StubStore {
  const rows = new Map<string, unknown>();
  const transitions: InteractionTransition[] = [];
  const faults: StubFaults = { transact: [], read: [] };
  const calls = { transact: 0, read: 0, decide: 0 };
  let queue: Promise<unknown> = Promise.resolve();
  const authorityOf = (caller: string) => AUTHORITIES[caller] ?? null;
  const store: InteractionStore<OpenCardSnapshotV1, string> = {
    transact(request, decide) {
      calls.transact += 1;
      const fault = faults.transact.shift();
      const run = queue.then(() => {
        if (fault === 'fail') throw new Error('failed before commit');
        const key = keyOf(request);
        const stored = rows.get(key);
        calls.decide += 1;
        const decision = decide({ record: stored === undefined ? null : structuredClone(stored), authority: authorityOf(request.caller) });
        if ('next' in decision) {
          const revision = (stored as { revision?: number } | undefined)?.revision ?? 0;
          if (decision.next.revision !== revision + 1) throw new Error('revision check failed');
          rows.set(key, structuredClone(decision.next));
          transitions.push(decision.transition);
        }
        if (fault === 'lose-ack') throw new Error('acknowledgement lost');
        return decision.result;
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async read(request) {
      calls.read += 1;
      if (faults.read.shift() === 'fail') throw new Error('read failed');
      const stored = rows.get(keyOf(request));
      return { record: stored === undefined ? null : structuredClone(stored), authority: authorityOf(request.caller) };
    },
  };
  return { store, rows, transitions, faults, calls };
}
