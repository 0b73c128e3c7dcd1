/**
 * The `chat-protocol-host` command (`bin/chat-protocol-host.js` runs `main`):
 * reads its options, starts the host, prints where it listens, and stops it
 * cleanly on SIGINT or SIGTERM. Argument handling and process lifetime only;
 * the wiring is `startHostCommand`'s. Exit codes: 0 after a signal, 1 when the
 * host cannot start, 2 for bad options or an `--agent` module that is no agent.
 */
import { HOST_COMMAND_USAGE, HOST_TOKENS_VARIABLE, parseHostCommand } from './host-command-options.js';
import { loadHostAgent } from './load-host-agent.js';
import { startHostCommand } from './start-host-command.js';

/** Where the command writes; the bin passes the process's streams. */
export interface HostCommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

// One line, never empty: a refused connection to a dual-stack `localhost` can be an AggregateError with an empty message.
function describeError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const text = error instanceof Error && error.message !== '' ? error.message : typeof code === 'string' ? code : String(error);
  return text.replace(/\s+/g, ' ').trim();
}

const processIo: HostCommandIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * Runs the command; resolves with its exit code once the host stopped (after
 * SIGINT or SIGTERM), or at once for `--help`, bad options or a failed start.
 * Guarantees: one line `chat-protocol-host listening on <url> (data: …)`,
 * the last of its startup, once requests are served; every error is one line on stderr.
 */
export async function main(
  argv: readonly string[],
  io: HostCommandIo = processIo,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const parsed = parseHostCommand(argv, environment);
  if (!parsed.ok) {
    io.stderr(`chat-protocol-host: ${parsed.message} (see --help)\n`);
    return 2;
  }
  if (parsed.value.kind === 'help') {
    io.stdout(HOST_COMMAND_USAGE);
    return 0;
  }
  const { options } = parsed.value;
  let agent;
  if (options.agentModule !== null) {
    const loaded = await loadHostAgent(options.agentModule, options);
    if (!loaded.ok) {
      io.stderr(`chat-protocol-host: ${loaded.message}\n`);
      return 2;
    }
    agent = loaded.value;
  }
  // Listening before the start, so a signal during it still ends in a clean stop.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  let running;
  try {
    running = await startHostCommand(options, agent);
  } catch (error) {
    io.stderr(`chat-protocol-host: could not start: ${describeError(error)}\n`);
    return 1;
  }
  if (running.generatedToken !== null) {
    io.stdout(`no ${HOST_TOKENS_VARIABLE} given: use "Authorization: Bearer ${running.generatedToken}" (caller local@local)\n`);
  }
  // Last, so a script that waits for this line has everything it needs.
  io.stdout(`chat-protocol-host listening on ${running.url} (data: ${running.database})\n`);
  const signal = await stopSignal;
  await running.close();
  io.stdout(`chat-protocol-host stopped (${signal})\n`);
  return 0;
}
