/**
 * The per-caller bound on open event streams, so one caller cannot hold a host
 * process's connections. It counts streams in this process only (a flood is
 * a per-process resource problem) and releases a slot when the stream ends,
 * errors or the client leaves.
 */

/** A counter of open streams per caller id. */
export interface StreamLimit {
  /** Takes a slot for `callerId`: false when the caller already holds `max`. */
  acquire(callerId: string): boolean;
  /** Wraps a stream response so its slot is released exactly once when its body ends or is cancelled. */
  release(callerId: string, response: Response): Response;
}

/** Creates a {@link StreamLimit} of at most `max` open streams per caller. */
export function createStreamLimit(max: number): StreamLimit {
  const open = new Map<string, number>();
  const free = (callerId: string): void => {
    const count = (open.get(callerId) ?? 1) - 1;
    if (count <= 0) open.delete(callerId);
    else open.set(callerId, count);
  };
  return {
    acquire(callerId) {
      const count = open.get(callerId) ?? 0;
      if (count >= max) return false;
      open.set(callerId, count + 1);
      return true;
    },
    release(callerId, response) {
      const body = response.body;
      if (body === null) {
        free(callerId);
        return response;
      }
      const reader = body.getReader();
      let released = false;
      const once = (): void => {
        if (!released) {
          released = true;
          free(callerId);
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
