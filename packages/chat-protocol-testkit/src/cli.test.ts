import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURES, FIXTURES, readCapture } from '../test/capture.js';
import { main } from './cli.js';
import { formatChatCaptureReport, verifyChatCapture } from './index.js';
import { runs } from '../../../test-support/property-runs.js';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

// Runs the command as the bin would, with standard input made of `stdin` chunks.
async function run(argv: readonly string[], stdin: readonly Uint8Array[] = []): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: async function* () {
      yield* stdin;
    },
  });
  return { code, stdout, stderr };
}

const capturePath = (name: string) => fileURLToPath(new URL(name, CAPTURES));
const bytes = (text: string) => new TextEncoder().encode(text);

describe('chat-protocol verify <capture> (issue 7)', () => {
  it('exits 0 on the clean capture with one summary line', async () => {
    const path = capturePath('clean.sse');
    expect(await run(['verify', path])).toEqual({ code: 0, stdout: `${path}: ok, 12 frames, 2 turns, no violations\n`, stderr: '' });
  });

  it('exits 1 on the bad capture: a summary line, then each violation with its seq and rule', async () => {
    const path = capturePath('violations.sse');
    const result = await run(['verify', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual([
      `${path}: 11 violations in 15 frames, 2 turns`,
      '  frame 4, seq 3 of turn_a: unknown-tool-call: no tool call call_refund in this turn',
      '  frame 5, seq 5 of turn_a: seq-gap: expected seq 4 of turn turn_a, got 5: seq 4 is missing',
      '  frame 6, seq 6 of turn_a: event-mismatch: event: SSE event is "message", envelope says delta',
      '  frame 7, seq 7 of turn_a: id-mismatch: id: SSE id is "turn_a:8", envelope cursor is turn_a:7',
      '  frame 8, seq 6 of turn_a: conflicting-duplicate: seq 6 of turn turn_a was delivered before with other content',
      '  frame 10, seq 9 of turn_a: turn-terminal: delta after the turn ended with done at seq 8',
      '  frame 11: unparseable-frame: unsupported-version: schemaVersion: expected schemaVersion 1',
      '  frame 12: invalid-sse-line: Invalid `retry` value: "soon"',
      '  frame 12: unparseable-frame: invalid-json: not valid JSON',
      '  frame 14, seq 2 of turn_b: tool-name-mismatch: tool call call_search called search_catalog, the result names search_orders',
      '  frame 16, seq 4 of turn_b: unterminated-frame: the capture ends inside this message (no blank line after it), so a client drops it',
      '',
    ]);
  });

  it('--json prints the library report', async () => {
    const result = await run(['verify', '--json', capturePath('violations.sse')]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual(verifyChatCapture(readCapture('violations.sse')));
  });

  it('- reads standard input, decoding UTF-8 split across chunks', async () => {
    // The summary sits in a frame the capture delivers twice; split inside the
    // emoji of the first delivery, a decoder per chunk would make them differ.
    const text = readCapture('clean.sse').split('Shipped on 2026-11-27.').join('Expédié le 27/11 📦');
    const encoded = bytes(text);
    const split = bytes(text.slice(0, text.indexOf('📦'))).length + 2;
    const chunks = [encoded.subarray(0, split), encoded.subarray(split, split + 1), encoded.subarray(split + 1)];
    expect(await run(['verify', '-'], chunks)).toEqual({ code: 0, stdout: 'stdin: ok, 12 frames, 2 turns, no violations\n', stderr: '' });
  });

  it('--legacy papercup checks the captured legacy session through the adapter', async () => {
    const path = fileURLToPath(new URL('legacy/papercup/refund-lookup.sse', FIXTURES));
    expect(await run(['verify', path, '--legacy', 'papercup'])).toEqual({
      code: 0,
      stdout: `${path}: ok, 12 frames, 1 turn, no violations\n`,
      stderr: '',
    });
  });

  it('--legacy scout reports the refused product events; --conversation and --turn name the ids', async () => {
    const path = fileURLToPath(new URL('legacy/scout/product-search.sse', FIXTURES));
    const result = await run(['verify', '--legacy', 'scout', '--conversation', 'conv_9', '--turn', 'turn_9', '--json', path]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual(
      verifyChatCapture(readCapture('../../../fixtures/legacy/scout/product-search.sse'), {
        legacy: 'scout',
        conversationId: 'conv_9',
        turnId: 'turn_9',
      }),
    );
  });

  it('--help prints the usage and exits 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('usage: chat-protocol verify <capture.sse | -> [options]');
  });

  it.each([
    { argv: [], error: 'no command' },
    { argv: ['check', 'a.sse'], error: 'unknown command "check"' },
    { argv: ['verify'], error: 'verify needs a capture file, - for stdin, or --url, exactly one' },
    { argv: ['verify', 'a.sse', 'b.sse'], error: 'one capture at a time, got "a.sse" and "b.sse"' },
    { argv: ['verify', 'a.sse', '--url', 'http://127.0.0.1:1/'], error: 'verify needs a capture file, - for stdin, or --url, exactly one' },
    { argv: ['verify', 'a.sse', '--strict'], error: 'unknown option --strict' },
    { argv: ['verify', 'a.sse', '--legacy'], error: '--legacy needs a value' },
    { argv: ['verify', 'a.sse', '--legacy', 'dotted'], error: '--legacy: expected papercup or scout, got "dotted"' },
    { argv: ['verify', 'a.sse', '--timeout', '10s'], error: '--timeout: expected milliseconds (1 to 999999999), got "10s"' },
    { argv: ['verify', '--url', 'not a url'], error: '--url: "not a url" is not a URL' },
    { argv: ['verify', '--url', 'file:///etc/passwd'], error: '--url: expected http: or https:, got file:' },
    {
      argv: ['verify', '--url', 'http://example.com/events'],
      error: '--url: example.com is not this machine; only loopback hosts are read (127.0.0.0/8, [::1], localhost)',
    },
    {
      argv: ['verify', '--url', 'http://10.0.0.1/events'],
      error: '--url: 10.0.0.1 is not this machine; only loopback hosts are read (127.0.0.0/8, [::1], localhost)',
    },
    {
      argv: ['verify', '--url', 'http://127.0.0.1.nip.io/events'],
      error: '--url: 127.0.0.1.nip.io is not this machine; only loopback hosts are read (127.0.0.0/8, [::1], localhost)',
    },
  ])('a usage error exits 2 and says why: $error', async ({ argv, error }) => {
    expect(await run(argv)).toEqual({ code: 2, stdout: '', stderr: `chat-protocol: ${error}\nrun "chat-protocol --help" for usage\n` });
  });

  it('an unreadable capture exits 2', async () => {
    const result = await run(['verify', capturePath('missing.sse')]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^chat-protocol: cannot read .*missing\.sse: ENOENT: no such file or directory/);
  });

  it('never throws on arbitrary bytes from stdin: exit 0 or 1 and a report', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 4 }), async (chunks) => {
        const result = await run(['verify', '-', '--json'], chunks);
        const report = verifyChatCapture(new TextDecoder().decode(Buffer.concat(chunks)));
        expect(result).toEqual({ code: report.ok ? 0 : 1, stdout: `${JSON.stringify(report, null, 2)}\n`, stderr: '' });
      }),
      { numRuns: runs(1_000) },
    );
  });
});

describe('chat-protocol verify --url (a live endpoint on this machine)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
    server = undefined;
  });

  async function serve(listener: RequestListener): Promise<string> {
    const started = createServer(listener);
    server = started;
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(started.address() as AddressInfo).port}/conversations/conv_demo/events`;
  }

  it('streams the body into the parser and reports as for the file', async () => {
    const text = readCapture('violations.sse');
    const url = await serve((request, response) => {
      expect(request.headers.accept).toBe('text/event-stream');
      response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      // Frames cut at odd places, as a network delivers them.
      for (let at = 0; at < text.length; at += 97) response.write(text.slice(at, at + 97));
      response.end();
    });
    const result = await run(['verify', '--url', url]);
    expect(result).toEqual({ code: 1, stdout: formatChatCaptureReport(verifyChatCapture(text), url), stderr: '' });
  });

  it('a clean endpoint exits 0', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(readCapture('clean.sse'));
    });
    expect(await run(['verify', '--url', url])).toEqual({ code: 0, stdout: `${url}: ok, 12 frames, 2 turns, no violations\n`, stderr: '' });
  });

  it.each([
    { status: 404, type: 'text/event-stream', error: (url: string) => `${url} answered 404 Not Found` },
    { status: 200, type: 'text/html', error: (url: string) => `${url} is not an SSE stream (content-type "text/html")` },
  ])('an answer that is not an SSE stream exits 2: $status $type', async ({ status, type, error }) => {
    const url = await serve((_request, response) => {
      response.writeHead(status, { 'content-type': type });
      response.end(readCapture('clean.sse'));
    });
    expect(await run(['verify', '--url', url])).toEqual({ code: 2, stdout: '', stderr: `chat-protocol: ${error(url)}\n` });
  });

  it('a redirect is not followed: a loopback URL cannot lead elsewhere', async () => {
    // The target is on this server too, so following it would read a clean capture.
    const url = await serve((request, response) => {
      if (request.url === '/elsewhere') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(readCapture('clean.sse'));
        return;
      }
      response.writeHead(302, { location: '/elsewhere' });
      response.end();
    });
    const result = await run(['verify', '--url', url]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^chat-protocol: cannot read http:\/\/127\.0\.0\.1:\d+\/conversations\/conv_demo\/events: fetch failed: .*redirect/,
    );
  });

  it('a stream that never ends times out and exits 2', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(readCapture('clean.sse'));
      // Heartbeats forever, until the test closes the server.
      const timer = setInterval(() => response.write(': ping\n\n'), 20);
      response.on('close', () => clearInterval(timer));
    });
    const result = await run(['verify', '--url', url, '--timeout', '300']);
    server?.closeAllConnections();
    expect(result).toEqual({ code: 2, stdout: '', stderr: `chat-protocol: ${url}: no end of stream within 300 ms\n` });
  });

  it('a port nobody listens on exits 2', async () => {
    const url = await serve(() => undefined);
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    const result = await run(['verify', '--url', url]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^chat-protocol: cannot read http:\/\/127\.0\.0\.1:\d+\/conversations\/conv_demo\/events: fetch failed: .*ECONNREFUSED/,
    );
  });
});
