/**
 * The per-caller bound on open event streams, so one caller cannot hold a host
 * process's connections. It counts streams in this process only (a flood is
 * a per-process resource problem), keyed on the caller's whole identity, and
 * releases a slot when the stream ends, errors or the client leaves. Which
 * answers hold a slot is the host's to decide.
 */
import type { ChatHostCaller } from '../chat-host-caller.js';

/** A counter of open streams per caller. */
export interface StreamLimit {
  /** Takes a slot for `caller`: false when the caller already holds `max`. */
  acquire(caller: ChatHostCaller): boolean;
  /**
   * Wraps a stream response so its slot is released exactly once when its body ends, errors or is cancelled;
   * `onEnd` is called then too (once).
   */
  release(caller: ChatHostCaller, response: Response, onEnd?: () => void): Response;
}

// One key per caller: its id and every authority field (tenant, principal, customer, public owner), as a JSON
// array, so no two different callers share a key however their names are spelled (`a:b`+`c` is not `a`+`b:c`).
function callerKey(caller: ChatHostCaller): string {
  return JSON.stringify([caller.tenantId, caller.principalId, caller.customerId, caller.publicOwnerId, caller.callerId]);
}

/** Creates a {@link StreamLimit} of at most `max` open streams per caller. */
export function createStreamLimit(max: number): StreamLimit {
  const open = new Map<string, number>();
  const free = (key: string): void => {
    const count = (open.get(key) ?? 1) - 1;
    if (count <= 0) open.delete(key);
    else open.set(key, count);
  };
  return {
    acquire(caller) {
      const key = callerKey(caller);
      const count = open.get(key) ?? 0;
      if (count >= max) return false;
      open.set(key, count + 1);
      return true;
    },
    release(caller, response, onEnd) {
      const key = callerKey(caller);
      const body = response.body;
      if (body === null) {
        free(key);
        onEnd?.();
        return response;
      }
      const reader = body.getReader();
      let released = false;
      const once = (): void => {
        if (!released) {
          released = true;
          free(key);
          onEnd?.();
        }
      };
      const wrapped = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) {
              once();
              controller.close();
            } else controller.enqueue(value);
          } catch (error) {
            once();
            controller.error(error);
          }
        },
        async cancel(reason) {
          once();
          await reader.cancel(reason);
        },
      });
      return new Response(wrapped, { status: response.status, headers: response.headers });
    },
  };
}
