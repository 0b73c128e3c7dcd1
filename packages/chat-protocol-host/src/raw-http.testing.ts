/**
 * Test support for the HTTP edge: a raw `node:net` client that writes bytes
 * exactly as given (keep-alive, pipelined requests, dribbled or oversized
 * bodies) and reads the answers off the socket itself, so a test sees what a
 * real client sees: each answer, the server's FIN, and any reset. Not part of
 * the package's build.
 */
import { connect, type Socket } from 'node:net';

/** One HTTP answer as read off the socket. */
interface RawAnswer {
  readonly status: number;
  /** Header names lower-cased; a repeated header keeps its last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A raw client connection: what it read so far, and how the connection ended. */
export interface RawConnection {
  readonly socket: Socket;
  /** Writes `text` (or bytes) as is; resolves once the socket took it. */
  write(data: string | Uint8Array): Promise<void>;
  /** The `index`-th answer on this connection (0 is the first), once it is whole; rejects past `timeoutMs`. */
  answer(index: number, timeoutMs?: number): Promise<RawAnswer>;
  /** Resolves when the server ended the connection: `end` after a FIN, else the socket error's code (`ECONNRESET`, …). */
  readonly ended: Promise<string>;
  /** The socket errors seen so far (codes). */
  readonly errors: readonly string[];
}

const CRLF = '\r\n';

// Parses whole answers off the front of `buffer`: a body by content-length, by chunks, or none.
function parseAnswers(buffer: Buffer, answers: RawAnswer[]): Buffer {
  for (;;) {
    const headEnd = buffer.indexOf(`${CRLF}${CRLF}`);
    if (headEnd < 0) return buffer;
    const [statusLine = '', ...lines] = buffer.subarray(0, headEnd).toString('latin1').split(CRLF);
    const status = Number(statusLine.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let offset = headEnd + 4;
    let body: Buffer;
    if (status === 100) {
      buffer = buffer.subarray(offset);
      continue;
    }
    if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = buffer.indexOf(CRLF, offset);
        if (lineEnd < 0) return buffer;
        const size = Number.parseInt(buffer.subarray(offset, lineEnd).toString('latin1'), 16);
        if (buffer.length < lineEnd + 2 + size + 2) return buffer;
        parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        offset = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? '0');
      if (buffer.length < offset + length) return buffer;
      body = buffer.subarray(offset, offset + length);
      offset += length;
    }
    answers.push({ status, headers, body: body.toString('utf8') });
    buffer = buffer.subarray(offset);
  }
}

/** Opens a raw connection to `base` (`http://127.0.0.1:<port>`). Destroy `socket` in teardown. */
export async function openRawConnection(base: string): Promise<RawConnection> {
  const { port } = new URL(base);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const answers: RawAnswer[] = [];
  const errors: string[] = [];
  let pending: Buffer = Buffer.alloc(0);
  let wake = (): void => undefined;
  socket.on('data', (chunk: Buffer) => {
    pending = parseAnswers(Buffer.concat([pending, chunk]), answers);
    wake();
  });
  const ended = new Promise<string>((resolve) => {
    socket.once('end', () => resolve('end'));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      errors.push(error.code ?? error.message);
      resolve(error.code ?? error.message);
    });
    socket.once('close', () => resolve('close'));
  });
  return {
    socket,
    errors,
    ended,
    write: (data) =>
      new Promise<void>((resolve, reject) =>
        socket.write(data, (error) => (error === undefined || error === null ? resolve() : reject(error))),
      ),
    answer: async (index, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      while (answers[index] === undefined) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no answer #${index} within ${timeoutMs} ms (${answers.length} read)`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
          void ended.then(() => wake());
        });
        if (socket.destroyed && answers[index] === undefined) throw new Error(`the connection ended before answer #${index}`);
      }
      return answers[index] as RawAnswer;
    },
  };
}

/** The head of an HTTP/1.1 request: the request line, `host`, then `headers` as given. */
export function requestHead(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'host: 127.0.0.1', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join(CRLF)}${CRLF}${CRLF}`;
}
