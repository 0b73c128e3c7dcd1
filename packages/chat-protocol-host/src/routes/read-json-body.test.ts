/**
 * Reading a body under a deadline (issue 24, DESIGN §11 "The HTTP edge"): a
 * body that does not arrive in time is `request-timeout` at the deadline,
 * and its source is cancelled; one that arrives in time reads as before.
 */
import { describe, expect, it } from 'vitest';
import { readJsonBody, withBodyDeadline } from './read-json-body.js';

const post = (body: ReadableStream<Uint8Array>): Request =>
  new Request('http://127.0.0.1/x', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);

describe('withBodyDeadline and readJsonBody (issue 24)', () => {
  it('§11 a body that stalls is request-timeout at the deadline, and its source is cancelled', async () => {
    let cancelled: unknown = 'not cancelled';
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const started = Date.now();
    expect(await readJsonBody(withBodyDeadline(post(stalled), 100), 1024)).toEqual({
      ok: false,
      code: 'request-timeout',
      message: 'the body did not arrive within 100 ms',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(cancelled).toBeInstanceOf(DOMException);
    expect((cancelled as DOMException).name).toBe('TimeoutError');
  });

  it('§11 a body that arrives in time, in pieces, is read whole', async () => {
    const pieces = ['{"text":', '"hi"}'];
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const piece = pieces.shift();
        if (piece === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(piece));
      },
    });
    expect(await readJsonBody(withBodyDeadline(post(body), 1000), 1024)).toEqual({ ok: true, value: { text: 'hi' } });
  });

  it('§11 a request without a body is returned as is; method, headers and signal are kept on one with a body', () => {
    const get = new Request('http://127.0.0.1/x');
    expect(withBodyDeadline(get, 100)).toBe(get);
    const controller = new AbortController();
    const original = new Request('http://127.0.0.1/x', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k' },
      body: '{}',
      signal: controller.signal,
    });
    const limited = withBodyDeadline(original, 100);
    expect([limited.method, limited.headers.get('idempotency-key')]).toEqual(['POST', 'k']);
    controller.abort();
    expect(limited.signal.aborted).toBe(true);
  });
});
