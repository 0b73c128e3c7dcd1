import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HOST_DATA_DIRECTORY, DEFAULT_HOST_PORT, HOST_COMMAND_USAGE, parseHostCommand } from './host-command-options.js';

describe('parseHostCommand (issue 17, "The host": the chat-protocol-host command)', () => {
  it('defaults: port 8787 on loopback, PGlite in ./.chat-protocol-data, no tokens (one is made up at start)', () => {
    expect(parseHostCommand([], {})).toEqual({
      ok: true,
      value: {
        kind: 'run',
        options: {
          port: DEFAULT_HOST_PORT,
          listenHost: '127.0.0.1',
          databaseUrl: null,
          dataDirectory: DEFAULT_HOST_DATA_DIRECTORY,
          tokens: null,
          toolDelayMs: 0,
          cardPollMs: 1000,
          runLeaseMs: 30_000,
          drainMs: 10_000,
          agentModule: null,
        },
      },
    });
  });

  it('reads --flag value and --flag=value, DATABASE_URL, and the tokens as token=caller@tenant', () => {
    const parsed = parseHostCommand(
      ['--port=0', '--host', '0.0.0.0', '--tool-delay-ms', '1500', '--agent=./agent.mjs', '--run-lease-ms=5000', '--drain-ms', '0'],
      {
        DATABASE_URL: 'postgres://db/chat',
        CHAT_PROTOCOL_HOST_TOKENS: 'aaaaaaaaaaaaaaaa=ana@acme, bbbbbbbbbbbbbbbb=bob@globex',
      },
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        kind: 'run',
        options: {
          port: 0,
          listenHost: '0.0.0.0',
          databaseUrl: 'postgres://db/chat',
          dataDirectory: DEFAULT_HOST_DATA_DIRECTORY,
          tokens: new Map([
            ['aaaaaaaaaaaaaaaa', { callerId: 'ana', tenantId: 'acme' }],
            ['bbbbbbbbbbbbbbbb', { callerId: 'bob', tenantId: 'globex' }],
          ]),
          toolDelayMs: 1500,
          cardPollMs: 1000,
          runLeaseMs: 5000,
          drainMs: 0,
          agentModule: './agent.mjs',
        },
      },
    });
  });

  it('--help wins over anything else', () => {
    expect(parseHostCommand(['--bogus', '--help'], {})).toEqual({ ok: true, value: { kind: 'help' } });
  });

  it.each([
    [['--verbose'], {}, 'unknown-flag'],
    [['--data-dir'], {}, 'missing-value'],
    [['--port', '65536'], {}, 'invalid-number'],
    [['--port', '-1'], {}, 'invalid-number'],
    [['--card-poll-ms', '0'], {}, 'invalid-number'],
    [['--run-lease-ms', '0'], {}, 'invalid-number'],
    [['--drain-ms', '-5'], {}, 'invalid-number'],
    [['--tool-delay-ms', '1.5'], {}, 'invalid-number'],
    [['--data-dir', 'here'], { DATABASE_URL: 'postgres://db/chat' }, 'conflicting-database'],
    [[], { CHAT_PROTOCOL_HOST_TOKENS: 'aaaaaaaaaaaaaaaa=ana' }, 'invalid-tokens'],
    [[], { CHAT_PROTOCOL_HOST_TOKENS: 'aaaaaaaaaaaaaaaa=ana@ac.me' }, 'invalid-tokens'],
    [[], { CHAT_PROTOCOL_HOST_TOKENS: 'short=ana@acme' }, 'invalid-tokens'],
  ] as const)('refuses %j %j as %s', (argv, environment, code) => {
    const parsed = parseHostCommand(argv, environment);
    expect(parsed.ok ? 'accepted' : parsed.code).toBe(code);
  });

  it('never echoes a token in a refusal', () => {
    const parsed = parseHostCommand([], { CHAT_PROTOCOL_HOST_TOKENS: 'secret-secret-secret=ana@ac.me' });
    expect(parsed).toEqual({
      ok: false,
      code: 'invalid-tokens',
      message: 'CHAT_PROTOCOL_HOST_TOKENS: entry 1 is not token=caller@tenant (letters, digits, _ or -)',
    });
  });
});

describe('the command README (issue 17: the command is documented)', () => {
  it('shows exactly what --help prints', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`\`--help\` prints:\n\n\`\`\`text\n${HOST_COMMAND_USAGE}\`\`\``);
  });
});
