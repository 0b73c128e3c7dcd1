/**
 * The per-caller stream limit (issue 24, DESIGN §11 "The HTTP edge"): keyed on
 * the caller's whole authority, never on a name alone or on names joined into
 * one string, and every way a stream ends releases its slot exactly once.
 */
import { describe, expect, it } from 'vitest';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { createStreamLimit } from './stream-limit.js';

const caller = (fields: Partial<ChatHostCaller> = {}): ChatHostCaller => ({
  callerId: 'ana',
  principalId: 'user_ana',
  tenantId: 'acme',
  customerId: null,
  publicOwnerId: null,
  ...fields,
});

// A stream body whose reader can be driven by the test.
function streamResponse() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(given) {
      controller = given;
    },
  });
  return { response: new Response(body), controller };
}

describe('createStreamLimit keys (issue 24)', () => {
  it('§11 ana of globex has her own slots while ana of acme (same caller id and principal) holds hers', () => {
    const limit = createStreamLimit(1);
    expect(limit.acquire(caller())).toBe(true);
    expect(limit.acquire(caller())).toBe(false);
    expect(limit.acquire(caller({ tenantId: 'globex' }))).toBe(true);
    expect(limit.acquire(caller({ tenantId: 'globex' }))).toBe(false);
  });

  it('§11 every authority field tells callers apart: principal, customer, public owner and caller id', () => {
    const limit = createStreamLimit(1);
    for (const fields of [
      {},
      { principalId: 'user_bob' },
      { customerId: 'cust_1' },
      { publicOwnerId: 'visitor_1' },
      { callerId: 'ana2' },
    ]) {
      expect([fields, limit.acquire(caller(fields))]).toEqual([fields, true]);
    }
  });

  it('§11 names that would collide if joined with a separator are different callers', () => {
    const limit = createStreamLimit(1);
    const pairs: Partial<ChatHostCaller>[][] = [
      [
        { tenantId: 'a:b', principalId: 'c' },
        { tenantId: 'a', principalId: 'b:c' },
      ],
      [
        { tenantId: 'a|b', principalId: 'c' },
        { tenantId: 'a', principalId: 'b|c' },
      ],
      [
        { tenantId: 'a","b', principalId: 'c' },
        { tenantId: 'a', principalId: 'b","c' },
      ],
      [{ customerId: null }, { customerId: 'null' }],
    ];
    for (const [first, second] of pairs) {
      expect(limit.acquire(caller(first))).toBe(true);
      expect([second, limit.acquire(caller(second))]).toEqual([second, true]);
    }
  });
});

describe('createStreamLimit release (issue 24)', () => {
  it('§11 the slot is released once the body ends, errors or is cancelled, or at once for no body', async () => {
    const limit = createStreamLimit(1);
    const ana = caller();
    const ending = streamResponse();
    expect(limit.acquire(ana)).toBe(true);
    const ended = limit.release(ana, ending.response).body?.getReader();
    expect(limit.acquire(ana)).toBe(false);
    ending.controller.close();
    expect(await ended?.read()).toEqual({ done: true, value: undefined });
    expect(limit.acquire(ana)).toBe(true);

    const failing = streamResponse();
    const failed = limit.release(ana, failing.response).body?.getReader();
    failing.controller.error(new Error('broken'));
    await expect(failed?.read()).rejects.toThrow('broken');
    expect(limit.acquire(ana)).toBe(true);

    const cancelled = limit.release(ana, streamResponse().response);
    await cancelled.body?.cancel();
    expect(limit.acquire(ana)).toBe(true);

    limit.release(ana, new Response(null));
    expect(limit.acquire(ana)).toBe(true);
  });

  it('§11 a slot is released exactly once: a cancel after the end frees nothing more', async () => {
    const limit = createStreamLimit(2);
    const ana = caller();
    expect(limit.acquire(ana)).toBe(true);
    expect(limit.acquire(ana)).toBe(true);
    const first = streamResponse();
    const body = limit.release(ana, first.response).body as ReadableStream<Uint8Array>;
    const reader = body.getReader();
    first.controller.close();
    await reader.read();
    await reader.cancel();
    // One slot free (the ended stream's), the other still held.
    expect(limit.acquire(ana)).toBe(true);
    expect(limit.acquire(ana)).toBe(false);
  });
});
