/**
 * Reads a request's JSON body under a byte bound and a deadline, for the
 * host's POST routes. It owns the content type, size, time and JSON checks,
 * and stops reading as soon as the bound or the deadline is passed (a huge or
 * dribbled body is never waited for whole); the shape of the JSON is each
 * route's, and what happens to the connection afterwards is the listener's.
 */
import { isSafeJson, type ParseResult } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';

/** Refusal codes of {@link readJsonBody}. */
export type ReadJsonBodyRefusalCode = 'unsupported-media-type' | 'body-too-large' | 'invalid-json' | 'request-timeout';

// The reason a body under a deadline fails with: the name `AbortSignal.timeout()` gives its own.
const BODY_TIMEOUT = 'TimeoutError';

const isBodyTimeout = (error: unknown): error is DOMException => error instanceof DOMException && error.name === BODY_TIMEOUT;

/**
 * `request` with a body that must arrive whole within `deadlineMs` of this
 * call: past it, reading the body fails (and {@link readJsonBody} answers
 * `request-timeout`), and the source is cancelled. The request is otherwise
 * the same (method, headers, signal); one without a body is returned as is.
 */
export function withBodyDeadline(request: Request, deadlineMs: number): Request {
  const source = request.body;
  if (source === null) return request;
  const reader = source.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DOMException(`the body did not arrive within ${deadlineMs} ms`, BODY_TIMEOUT)), deadlineMs);
    // The deadline of a body nobody reads (a request refused before its body) never keeps a process alive.
    timer.unref?.();
  });
  // A body nobody reads expires unobserved: that is not an error.
  expired.catch(() => undefined);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await Promise.race([reader.read(), expired]);
        if (next.done) {
          clearTimeout(timer);
          controller.close();
        } else controller.enqueue(next.value);
      } catch (error) {
        clearTimeout(timer);
        controller.error(error);
        await reader.cancel(error).catch(() => undefined);
      }
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason);
    },
  });
  const init: RequestInit & { duplex: 'half' } = { body, duplex: 'half' };
  return new Request(request, init);
}

/**
 * The parsed JSON body of `request`, or a refusal: `unsupported-media-type`
 * unless the content type is `application/json`, `body-too-large` past
 * `maxBytes` (by `content-length` or by what arrives), `request-timeout` when
 * the body is under {@link withBodyDeadline} and did not arrive in time,
 * `invalid-json` for anything that is not UTF-8 JSON within core's safe-JSON
 * bounds. Never rejects.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<ParseResult<unknown, ReadJsonBodyRefusalCode>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return refuse('unsupported-media-type', 'the body must be application/json');
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return refuse('body-too-large', `the body is over ${maxBytes} bytes`);
  const body = request.body;
  if (body === null) return refuse('invalid-json', 'the body is empty');
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      if (length > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return refuse('body-too-large', `the body is over ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (isBodyTimeout(error)) return refuse('request-timeout', error.message);
    return refuse('invalid-json', 'the body could not be read');
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return refuse('invalid-json', 'the body is not UTF-8 JSON');
  }
  return isSafeJson(value) ? { ok: true, value } : refuse('invalid-json', 'the body is outside the JSON bounds');
}

/** Whether a value {@link readJsonBody} returned is a JSON object (safe JSON: a plain object, never an array or null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
