/**
 * Reads a request's JSON body under a byte bound, for the host's POST routes.
 * It owns the content type, size and JSON checks, and stops reading as soon as
 * the bound is passed (a huge body is never buffered whole); the shape of the
 * JSON is each route's.
 */
import { isSafeJson, refuse, type ParseResult } from '@papercusp/chat-protocol-core';

/** Refusal codes of {@link readJsonBody}. */
export type ReadJsonBodyRefusalCode = 'unsupported-media-type' | 'body-too-large' | 'invalid-json';

/**
 * The parsed JSON body of `request`, or a refusal: `unsupported-media-type`
 * unless the content type is `application/json`, `body-too-large` past
 * `maxBytes` (by `content-length` or by what arrives), `invalid-json` for
 * anything that is not UTF-8 JSON within core's safe-JSON bounds. Never rejects.
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
  } catch {
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
