/**
 * Writing a web `Response` to a Node `http` response, for Express, Fastify
 * (`reply.raw`) and plain `node:http` servers: status, headers, then the body
 * as the socket drains. It owns the copy and nothing else; the only module of
 * the package that touches `node:`.
 */
import type { ServerResponse } from 'node:http';

/**
 * Writes `response` to `target`: the status and every header (each
 * `set-cookie` on its own), flushed at once so an event stream's client sees
 * them before the first frame; then each body chunk, waiting for `drain` when
 * the socket's buffer is full, so the body is read only as fast as the client
 * reads (the stream's own limit then bounds the memory). When `target` closes
 * before the body ends (the client went away), the body is cancelled, which
 * releases an SSE stream's subscription and timers. When the body errors (an
 * SSE stream closed a reader that fell behind), the socket is destroyed rather
 * than ended, so the client sees a broken connection and resumes. Resolves once
 * the copy is over, however it ended; never rejects.
 */
export async function writeChatSseResponse(response: Response, target: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  if (target.destroyed) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  target.writeHead(response.status, headers);
  if (response.body === null) {
    target.end();
    return;
  }
  target.flushHeaders();
  const reader = response.body.getReader();
  let closed = false;
  let wake: (() => void) | undefined;
  const onClose = (): void => {
    closed = true;
    wake?.();
    reader.cancel().catch(() => undefined);
  };
  target.once('close', onClose);
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        if (!closed) target.end();
        return;
      }
      if (closed) return;
      if (!target.write(next.value)) {
        await new Promise<void>((resolve) => {
          const drained = (): void => {
            target.off('drain', drained);
            wake = undefined;
            resolve();
          };
          wake = drained;
          target.once('drain', drained);
        });
        if (closed) return;
      }
    }
  } catch {
    // The body failed (or was cancelled because the client left): break the connection so the client resumes.
    target.destroy();
  } finally {
    target.off('close', onClose);
  }
}
