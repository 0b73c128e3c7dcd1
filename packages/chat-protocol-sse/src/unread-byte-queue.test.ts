import { describe, expect, it } from 'vitest';
import { createUnreadByteQueue } from './unread-byte-queue.js';

const decoder = new TextDecoder();

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  const reader = stream.getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) return text;
    text += decoder.decode(next.value, { stream: true });
  }
}

describe('createUnreadByteQueue: the per-connection memory bound (issue 16)', () => {
  it('holds at most maxUnreadBytes for a reader that never reads, then errors the stream, drops the queue and reports overflow once', async () => {
    const finishes: string[] = [];
    const queue = createUnreadByteQueue({ maxUnreadBytes: 1000, onFinish: (reason) => finishes.push(reason) });
    const chunk = 'a'.repeat(90);
    let accepted = 0;
    let peak = 0;
    while (accepted < 1000 && queue.push(chunk)) {
      accepted += 1;
      peak = Math.max(peak, queue.unreadBytes());
    }
    expect(accepted).toBe(11);
    expect(peak).toBe(990);
    expect(queue.unreadBytes()).toBe(0);
    expect(finishes).toEqual(['overflow']);
    expect(queue.push(chunk)).toBe(false);
    await expect(queue.stream.getReader().read()).rejects.toThrow('the reader left more than 1000 bytes unread');
  });

  it('accepts one chunk larger than the limit when nothing else is unread, so a large frame is still delivered', async () => {
    const queue = createUnreadByteQueue({ maxUnreadBytes: 10, onFinish: () => undefined });
    expect(queue.push('b'.repeat(50))).toBe(true);
    expect(queue.unreadBytes()).toBe(50);
    queue.close();
    expect(await readAll(queue.stream)).toBe('b'.repeat(50));
  });

  it('keeps accepting while the reader keeps up: the limit counts unread bytes, not bytes sent', async () => {
    const queue = createUnreadByteQueue({ maxUnreadBytes: 100, onFinish: () => undefined });
    const reader = queue.stream.getReader();
    for (let index = 0; index < 50; index += 1) {
      expect(queue.push('c'.repeat(60))).toBe(true);
      expect(decoder.decode((await reader.read()).value)).toBe('c'.repeat(60));
    }
    expect(queue.unreadBytes()).toBe(0);
  });

  it('sends the replay backlog first, then pushed chunks, in order, and closes after the reader has everything', async () => {
    const finishes: string[] = [];
    const queue = createUnreadByteQueue({ maxUnreadBytes: 1000, onFinish: (reason) => finishes.push(reason) });
    queue.replay(['1', '2', '3'].values());
    queue.push('4');
    queue.push('5');
    queue.close();
    expect(queue.push('6')).toBe(false);
    expect(await readAll(queue.stream)).toBe('12345');
    expect(finishes).toEqual(['closed']);
  });

  it('produces the replay backlog only as the reader pulls it: a long replay never counts against the limit', async () => {
    let produced = 0;
    function* backlog(): Generator<string, void, undefined> {
      for (let index = 0; index < 1000; index += 1) {
        produced += 1;
        yield 'd'.repeat(100);
      }
    }
    const queue = createUnreadByteQueue({ maxUnreadBytes: 1000, onFinish: () => undefined });
    queue.replay(backlog());
    // The read-ahead is half the limit: five chunks of 100 bytes.
    expect(produced).toBe(5);
    expect(queue.unreadBytes()).toBe(500);
    queue.close();
    expect((await readAll(queue.stream)).length).toBe(100_000);
    expect(produced).toBe(1000);
  });

  it('reports a reader cancel once, and ignores everything after it', async () => {
    const finishes: string[] = [];
    const queue = createUnreadByteQueue({ maxUnreadBytes: 1000, onFinish: (reason) => finishes.push(reason) });
    queue.push('e');
    await queue.stream.cancel();
    expect(queue.push('f')).toBe(false);
    queue.close();
    queue.fail(new Error('late'));
    expect(finishes).toEqual(['cancelled']);
    expect(queue.unreadBytes()).toBe(0);
  });
});

describe('createUnreadByteQueue: the last chunk and the cut (issue 25, the framing option)', () => {
  it('asks close(last) once, after the backlog and the held chunks, keeps the first last of two closes, and adds nothing for an empty one', async () => {
    const asked: string[] = [];
    const queue = createUnreadByteQueue({ maxUnreadBytes: 1000, onFinish: (reason) => asked.push(`finish ${reason}`) });
    queue.replay(['r1', 'r2'][Symbol.iterator]());
    queue.push('h1');
    queue.close(() => {
      asked.push('last');
      return 'L';
    });
    queue.close(() => 'second');
    expect(await readAll(queue.stream)).toBe('r1r2h1L');
    expect(asked).toEqual(['last', 'finish closed']);
    const empty = createUnreadByteQueue({ maxUnreadBytes: 1000, onFinish: () => undefined });
    empty.push('x');
    empty.close(() => '');
    expect(await readAll(empty.stream)).toBe('x');
  });

  it('close(last) while the reader waits for a chunk: the last chunk reaches it and the stream closes once, with no throw', async () => {
    const finishes: string[] = [];
    const queue = createUnreadByteQueue({ maxUnreadBytes: 1000, onFinish: (reason) => finishes.push(reason) });
    const reading = readAll(queue.stream);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(() => queue.close(() => 'retry: 250\n\n')).not.toThrow();
    expect(await reading).toBe('retry: 250\n\n');
    expect(finishes).toEqual(['closed']);
  });

  it('cut ends the stream after what the reader already has, dropping the backlog and the held chunks, even from inside the backlog', async () => {
    const finishes: string[] = [];
    // A read-ahead of 2 bytes: the backlog gives one chunk per pull, so the cut comes from inside a later pull.
    const queue = createUnreadByteQueue({ maxUnreadBytes: 4, onFinish: (reason) => finishes.push(reason) });
    function* backlog(): Generator<string, void, undefined> {
      yield 'a1';
      queue.cut();
      yield 'never';
    }
    queue.replay(backlog());
    queue.push('h1');
    expect(await readAll(queue.stream)).toBe('a1');
    expect(finishes).toEqual(['closed']);
    expect(queue.push('late')).toBe(false);
    // The same cut while replay() feeds the backlog synchronously: the chunk produced after it is not enqueued.
    const eager = createUnreadByteQueue({ maxUnreadBytes: 1000, onFinish: () => undefined });
    function* eagerBacklog(): Generator<string, void, undefined> {
      yield 'b1';
      eager.cut();
      yield 'never';
    }
    expect(() => eager.replay(eagerBacklog())).not.toThrow();
    expect(await readAll(eager.stream)).toBe('b1');
  });
});

describe('createUnreadByteQueue: writes batched per tick (issue 28)', () => {
  async function chunks(stream: ReadableStream<Uint8Array>): Promise<string[]> {
    const read: string[] = [];
    for await (const chunk of stream) read.push(decoder.decode(chunk));
    return read;
  }

  it('enqueues the backlog as one chunk per pull, up to the read-ahead, and the chunks pushed in one run as one', async () => {
    const queue = createUnreadByteQueue({ maxUnreadBytes: 1000, onFinish: () => undefined });
    // A read-ahead of 500: fifty 10-byte backlog chunks fill one enqueue, the other fifty the next.
    queue.replay(Array.from({ length: 100 }, (_, index) => `r${String(index).padStart(8, '0')};`).values());
    queue.push('h1');
    queue.push('h2');
    queue.push('h3');
    const reading = chunks(queue.stream);
    await Promise.resolve();
    queue.close(() => 'L');
    const read = await reading;
    expect(read.map((chunk) => chunk.length)).toEqual([500, 500, 6, 1]);
    expect(read[2]).toBe('h1h2h3');
  });

  it('enqueues a lone pushed chunk at the next microtask checkpoint, before any timer', async () => {
    const queue = createUnreadByteQueue({ maxUnreadBytes: 1000, onFinish: () => undefined });
    const reader = queue.stream.getReader();
    const reading = reader.read().then((next) => decoder.decode(next.value));
    // The stream has pulled and found nothing: only the push can feed it now.
    await new Promise((resolve) => setImmediate(resolve));
    // Set before the push: it fires before any timer the queue could set for it.
    const timer = new Promise<string>((resolve) => setTimeout(() => resolve('not yet'), 0));
    queue.push('alone');
    expect(await Promise.race([reading, timer])).toBe('alone');
  });
});
