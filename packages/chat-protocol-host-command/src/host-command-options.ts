/**
 * The `chat-protocol-host` command's arguments and environment, read into one
 * record: where to listen, which database, which bearer tokens, how slow the
 * scripted refund is. It owns parsing and the usage text; it opens nothing and
 * never throws: a bad flag is a refusal the command prints on one line.
 */
import { type ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { isRouteId } from '@papercusp/chat-protocol-host';

/** Who a bearer token stands for: a caller name and its tenant, both route-id shaped. */
export interface HostCommandIdentity {
  readonly callerId: string;
  readonly tenantId: string;
}

/** What the command runs with. */
export interface HostCommandOptions {
  readonly port: number;
  /** The interface to listen on (default `127.0.0.1`: loopback only). */
  readonly listenHost: string;
  /** `DATABASE_URL` when set: a real Postgres through a `pg` pool. */
  readonly databaseUrl: string | null;
  /** The PGlite data directory, used when `databaseUrl` is null. */
  readonly dataDirectory: string;
  /** Bearer token → identity; `null` when none were configured (the command then makes one up and prints it). */
  readonly tokens: ReadonlyMap<string, HostCommandIdentity> | null;
  /** How long the scripted refund's external effect takes, in milliseconds. */
  readonly toolDelayMs: number;
  /** How often a waiting turn reads its card when the answer reached another process. */
  readonly cardPollMs: number;
  /** The run lease (DESIGN §6 rule 12): a turn whose process died ends within it plus one sweep; the sweeper runs every lease. */
  readonly runLeaseMs: number;
  /** On SIGTERM or SIGINT, how long running turns get to finish before they are interrupted (DESIGN §11.2). */
  readonly drainMs: number;
  /** The `--agent` module's path as given (resolved against the working directory when loaded), or null for the scripted agent. */
  readonly agentModule: string | null;
}

/** `run` with the options, or `help` for `--help`. */
export type HostCommand = { readonly kind: 'help' } | { readonly kind: 'run'; readonly options: HostCommandOptions };

/** Refusal codes of {@link parseHostCommand}. */
export type HostCommandRefusalCode = 'unknown-flag' | 'missing-value' | 'invalid-number' | 'invalid-tokens' | 'conflicting-database';

/** The default port when `--port` is not given. */
export const DEFAULT_HOST_PORT = 8787;
/** The default PGlite data directory, relative to where the command runs. */
export const DEFAULT_HOST_DATA_DIRECTORY = './.chat-protocol-data';
/** The environment variable holding the bearer tokens. */
export const HOST_TOKENS_VARIABLE = 'CHAT_PROTOCOL_HOST_TOKENS';
const MIN_TOKEN_LENGTH = 16;

/** The text `--help` prints. */
export const HOST_COMMAND_USAGE = `usage: chat-protocol-host [options]

Serves the reference chat host (the routes under /v1/conversations/) with the scripted
agent, or with your own (--agent).

options:
  --agent <path>        serve this module's agent: its default export is a ChatAgent, or a
                        function given { toolDelayMs, cardPollMs } that returns one
  --port <n>            the port to listen on; 0 picks a free one (default ${DEFAULT_HOST_PORT})
  --host <address>      the address to listen on (default 127.0.0.1, this machine only)
  --data-dir <path>     keep the data in PGlite in this folder (default ${DEFAULT_HOST_DATA_DIRECTORY})
  --tool-delay-ms <n>   how long the scripted refund takes (default 0)
  --card-poll-ms <n>    how often a waiting turn reads its card (default 1000)
  --run-lease-ms <n>    a turn whose host process died ends within this plus one
                        sweep (default 30000; the same on every process of a database)
  --drain-ms <n>        on SIGTERM or SIGINT, how long running turns get to finish
                        before they are interrupted and the command exits (default 10000)
  --help                print this and exit

environment:
  DATABASE_URL               use this Postgres server instead of PGlite; several
                             processes on one database serve the same conversations
  ${HOST_TOKENS_VARIABLE}  bearer tokens, "token=caller@tenant" separated by commas
                             or spaces (each token at least ${MIN_TOKEN_LENGTH} characters); without
                             it one random token for local@local is made up and printed

A conversation belongs to the caller whose first accepted turn names it (POST
/turns, or the AG-UI and AI SDK POSTs); a refused request claims nothing, and
anyone else gets 404 for it, exactly as for a conversation that does not exist.
On SIGTERM (or SIGINT) the command drains: new turns get 503 with Retry-After, running
turns finish within --drain-ms or are interrupted (their clients see done: interrupted
and may send again), open streams end with a retry: hint, and the command exits.
exit code: 0 after SIGINT or SIGTERM, 1 when the database cannot be opened, 2 for bad options
or an --agent module that cannot be loaded or is not an agent
`;

const NUMBER_FLAGS = {
  '--port': 'port',
  '--tool-delay-ms': 'toolDelayMs',
  '--card-poll-ms': 'cardPollMs',
  '--run-lease-ms': 'runLeaseMs',
  '--drain-ms': 'drainMs',
} as const;
// Intervals that must not be 0.
const POSITIVE: ReadonlySet<string> = new Set(['cardPollMs', 'runLeaseMs']);

/**
 * Reads `argv` (without the node and script paths) and `environment`.
 * Guarantees: `--help` anywhere wins; every other problem is one refusal
 * naming the flag; numbers are whole and in range (a port 0–65535); tokens
 * are parsed strictly (a malformed entry refuses them all).
 */
export function parseHostCommand(
  argv: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
): { readonly ok: true; readonly value: HostCommand } | ChatRefusal<HostCommandRefusalCode> {
  if (argv.includes('--help') || argv.includes('-h')) return { ok: true, value: { kind: 'help' } };
  const numbers = { port: DEFAULT_HOST_PORT, toolDelayMs: 0, cardPollMs: 1000, runLeaseMs: 30_000, drainMs: 10_000 };
  let listenHost = '127.0.0.1';
  let dataDirectory: string | undefined;
  let agentModule: string | null = null;
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index] ?? '';
    const [name, inline] =
      flag.startsWith('--') && flag.includes('=')
        ? [flag.slice(0, flag.indexOf('=')), flag.slice(flag.indexOf('=') + 1)]
        : [flag, undefined];
    if (!(name in NUMBER_FLAGS) && name !== '--host' && name !== '--data-dir' && name !== '--agent')
      return refuse('unknown-flag', `unknown option ${JSON.stringify(name)}`);
    const value = inline ?? argv[(index += 1)];
    if (value === undefined || value === '') return refuse('missing-value', `${name} needs a value`);
    if (name === '--host') listenHost = value;
    else if (name === '--data-dir') dataDirectory = value;
    else if (name === '--agent') agentModule = value;
    else {
      const key = NUMBER_FLAGS[name as keyof typeof NUMBER_FLAGS];
      const number = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
      if (Number.isNaN(number) || (key === 'port' && number > 65_535) || (POSITIVE.has(key) && number === 0)) {
        return refuse(
          'invalid-number',
          `${name}: expected ${key === 'port' ? 'a port from 0 to 65535' : 'a whole number of milliseconds'}, got ${JSON.stringify(value)}`,
        );
      }
      numbers[key] = number;
    }
  }
  const databaseUrl = environment['DATABASE_URL'] || null;
  if (databaseUrl !== null && dataDirectory !== undefined) {
    return refuse('conflicting-database', '--data-dir and DATABASE_URL both name a database: give one');
  }
  const tokens = parseHostTokens(environment[HOST_TOKENS_VARIABLE]);
  if (!tokens.ok) return tokens;
  return {
    ok: true,
    value: {
      kind: 'run',
      options: {
        ...numbers,
        listenHost,
        databaseUrl,
        dataDirectory: dataDirectory ?? DEFAULT_HOST_DATA_DIRECTORY,
        tokens: tokens.value,
        agentModule,
      },
    },
  };
}

function parseHostTokens(
  text: string | undefined,
): { readonly ok: true; readonly value: ReadonlyMap<string, HostCommandIdentity> | null } | ChatRefusal<'invalid-tokens'> {
  if (text === undefined || text.trim() === '') return { ok: true, value: null };
  const tokens = new Map<string, HostCommandIdentity>();
  const entries = text.split(/[\s,]+/).filter((part) => part !== '');
  for (const [index, entry] of entries.entries()) {
    const match = /^([^=\s]+)=([^@\s]+)@([^@\s]+)$/.exec(entry);
    const [token, callerId, tenantId] = match === null ? [] : match.slice(1);
    // The entry itself is never echoed: it holds a secret.
    if (token === undefined || callerId === undefined || tenantId === undefined || !isRouteId(callerId) || !isRouteId(tenantId)) {
      return refuse('invalid-tokens', `${HOST_TOKENS_VARIABLE}: entry ${index + 1} is not token=caller@tenant (letters, digits, _ or -)`);
    }
    if (token.length < MIN_TOKEN_LENGTH) {
      return refuse(
        'invalid-tokens',
        `${HOST_TOKENS_VARIABLE}: the token of entry ${index + 1} is shorter than ${MIN_TOKEN_LENGTH} characters`,
      );
    }
    tokens.set(token, { callerId, tenantId });
  }
  return { ok: true, value: tokens };
}
