/**
 * The `chat-protocol` command: `verify` reads an SSE capture from a file,
 * stdin or a live endpoint on this machine and prints the report of
 * `verifyChatCapture`. Argument parsing and I/O only; the checks live in the
 * library. Exit codes: 0 clean, 1 violations, 2 usage error or unreadable input.
 */
import { readFile } from 'node:fs/promises';
import { formatChatCaptureReport } from './format-chat-capture-report.js';
import {
  CHAT_CAPTURE_DIALECTS,
  createChatCaptureVerifier,
  type ChatCaptureDialect,
  type ChatCaptureVerifier,
  type VerifyChatCaptureOptions,
} from './verify-chat-capture.js';

/** Where the command writes and reads; tests pass their own. */
export interface ChatProtocolCliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The bytes of standard input, in chunks. */
  readonly stdin: () => AsyncIterable<Uint8Array>;
}

/** How long `--url` waits for the whole stream by default. */
const DEFAULT_TIMEOUT_MS = 10_000;

const USAGE = `usage: chat-protocol verify <capture.sse | -> [options]
       chat-protocol verify --url http://127.0.0.1:PORT/path [options]

Checks an SSE capture against the v1 chat protocol contract.

options:
  --url <url>            read a live SSE endpoint on this machine (loopback only)
  --timeout <ms>         give up on --url after this long (default ${DEFAULT_TIMEOUT_MS})
  --legacy <dialect>     read legacy frames of ${CHAT_CAPTURE_DIALECTS.join(' or ')} through the legacy adapter
  --conversation <id>    the conversation the capture must belong to
  --turn <id>            the turn legacy frames belong to (default turn_legacy)
  --json                 print the report as JSON

exit code: 0 clean, 1 violations, 2 usage error or unreadable input
`;

interface VerifyCommand {
  readonly source:
    { readonly kind: 'file'; readonly path: string } | { readonly kind: 'stdin' } | { readonly kind: 'url'; readonly url: URL };
  readonly json: boolean;
  readonly timeoutMs: number;
  readonly options: VerifyChatCaptureOptions;
}

class UsageError extends Error {}
class InputError extends Error {}

/**
 * Runs the command with `argv` (the arguments after the program name) and
 * returns the exit code. Never throws: a usage error or unreadable input is
 * written to `stderr` with exit code 2.
 */
export async function main(argv: readonly string[], io: ChatProtocolCliIo = processIo()): Promise<number> {
  let command: VerifyCommand | 'help';
  try {
    command = parseArguments(argv);
  } catch (error) {
    io.stderr(`chat-protocol: ${messageOf(error)}\nrun "chat-protocol --help" for usage\n`);
    return 2;
  }
  if (command === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  const verifier = createChatCaptureVerifier(command.options);
  try {
    await readInto(verifier, command, io);
  } catch (error) {
    io.stderr(`chat-protocol: ${messageOf(error)}\n`);
    return 2;
  }
  const report = verifier.end();
  io.stdout(command.json ? `${JSON.stringify(report, null, 2)}\n` : formatChatCaptureReport(report, nameOf(command.source)));
  return report.ok ? 0 : 1;
}

function parseArguments(argv: readonly string[]): VerifyCommand | 'help' {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') return 'help';
  if (name === undefined) throw new UsageError('no command');
  if (name !== 'verify') throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  let path: string | undefined;
  let url: string | undefined;
  let json = false;
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  let legacy: ChatCaptureDialect | undefined;
  let conversationId: string | undefined;
  let turnId: string | undefined;
  for (let index = 0; index < rest.length; index++) {
    const argument = rest[index] ?? '';
    const value = () => {
      const next = rest[++index];
      if (next === undefined) throw new UsageError(`${argument} needs a value`);
      return next;
    };
    if (argument === '--help' || argument === '-h') return 'help';
    else if (argument === '--json') json = true;
    else if (argument === '--url') url = value();
    else if (argument === '--conversation') conversationId = value();
    else if (argument === '--turn') turnId = value();
    else if (argument === '--timeout') {
      const text = value();
      timeoutMs = Number(text);
      if (!/^[1-9]\d{0,8}$/.test(text))
        throw new UsageError(`--timeout: expected milliseconds (1 to 999999999), got ${JSON.stringify(text)}`);
    } else if (argument === '--legacy') {
      const dialect = value();
      if (!isDialect(dialect))
        throw new UsageError(`--legacy: expected ${CHAT_CAPTURE_DIALECTS.join(' or ')}, got ${JSON.stringify(dialect)}`);
      legacy = dialect;
    } else if (argument.startsWith('-') && argument !== '-') throw new UsageError(`unknown option ${argument}`);
    else if (path === undefined) path = argument;
    else throw new UsageError(`one capture at a time, got ${JSON.stringify(path)} and ${JSON.stringify(argument)}`);
  }
  if ((path === undefined) === (url === undefined)) throw new UsageError('verify needs a capture file, - for stdin, or --url, exactly one');
  const options: VerifyChatCaptureOptions = {
    ...(legacy === undefined ? {} : { legacy }),
    ...(conversationId === undefined ? {} : { conversationId }),
    ...(turnId === undefined ? {} : { turnId }),
  };
  const source: VerifyCommand['source'] =
    url !== undefined ? { kind: 'url', url: loopbackUrl(url) } : path === '-' ? { kind: 'stdin' } : { kind: 'file', path: path ?? '' };
  return { source, json, timeoutMs, options };
}

function isDialect(value: string): value is ChatCaptureDialect {
  return (CHAT_CAPTURE_DIALECTS as readonly string[]).includes(value);
}

// --url reads only this machine: a capture check must never become a way to reach other hosts.
function loopbackUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url: ${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url: expected http: or https:, got ${url.protocol}`);
  const host = url.hostname;
  if (host !== 'localhost' && host !== '[::1]' && !/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) {
    throw new UsageError(`--url: ${host} is not this machine; only loopback hosts are read (127.0.0.0/8, [::1], localhost)`);
  }
  return url;
}

async function readInto(verifier: ChatCaptureVerifier, command: VerifyCommand, io: ChatProtocolCliIo): Promise<void> {
  const { source } = command;
  if (source.kind === 'file') {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(source.path);
    } catch (error) {
      throw new InputError(`cannot read ${source.path}: ${messageOf(error)}`);
    }
    verifier.push(new TextDecoder().decode(bytes));
    return;
  }
  if (source.kind === 'stdin') {
    await pushChunks(verifier, io.stdin());
    return;
  }
  await readUrl(verifier, source.url, command.timeoutMs);
}

async function readUrl(verifier: ChatCaptureVerifier, url: URL, timeoutMs: number): Promise<void> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    // No redirects: a loopback URL must not lead anywhere else.
    const response = await fetch(url, { headers: { accept: 'text/event-stream' }, redirect: 'error', signal });
    if (!response.ok) throw new InputError(`${url.href} answered ${response.status} ${response.statusText}`);
    const type = response.headers.get('content-type') ?? '';
    if (!/^text\/event-stream\b/i.test(type))
      throw new InputError(`${url.href} is not an SSE stream (content-type ${JSON.stringify(type)})`);
    if (response.body === null) return;
    const reader = response.body.getReader();
    await pushChunks(verifier, {
      async *[Symbol.asyncIterator]() {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      },
    });
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (signal.aborted) throw new InputError(`${url.href}: no end of stream within ${timeoutMs} ms`);
    throw new InputError(`cannot read ${url.href}: ${messageOf(error)}`);
  }
}

async function pushChunks(verifier: ChatCaptureVerifier, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  // One decoder for the whole stream, so a UTF-8 sequence split across chunks decodes whole.
  const decoder = new TextDecoder();
  for await (const chunk of chunks) verifier.push(decoder.decode(chunk, { stream: true }));
  verifier.push(decoder.decode());
}

function nameOf(source: VerifyCommand['source']): string {
  return source.kind === 'file' ? source.path : source.kind === 'stdin' ? 'stdin' : source.url.href;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    // fetch reports the reason (refused connection, redirect) as the error's cause.
    const { cause } = error as { readonly cause?: unknown };
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

function processIo(): ChatProtocolCliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdin: () => process.stdin,
  };
}
