/**
 * Test support for the `chat-protocol-host` command's tests and the demo's:
 * spawns the real built command (`bin/chat-protocol-host.js`) as a child
 * process, waits for its `listening on` line, and stops it; every process it
 * started is killed in `stopAllHostCommands` even when a test failed.
 * Not part of the package's build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const HOST_BIN = fileURLToPath(new URL('../bin/chat-protocol-host.js', import.meta.url));
const HOST_DIST = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

export const TOKENS = { ana: 'token-ana-0123456789', bob: 'token-bob-0123456789' } as const;
export const TOKENS_VARIABLE = `${TOKENS.ana}=ana@acme,${TOKENS.bob}=bob@globex`;

/** A running command. */
export interface HostProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed on stdout so far. */
  readonly stdout: () => string;
  /** Sends `signal` and resolves with the exit code and the whole output. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<{ code: number | null; stdout: string; stderr: string }>;
}

const started = new Set<ChildProcess>();

function requireBuilt(): void {
  if (!existsSync(HOST_DIST))
    throw new Error('dist/cli.js is missing: run `pnpm --filter @papercusp/chat-protocol-host-command build` first');
}

/** The environment of a child: this process's, with `env` over it (`undefined` removes a variable). */
function childEnvironment(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const environment: Record<string, string | undefined> = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete environment[name];
  return environment;
}

/** Runs a Node script to its end, tracked like the commands (the demo's test runs `scripts/demo.mjs` with it). */
export function runNodeScript(
  script: string,
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env: childEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'] });
    started.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      started.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs the command to its end (for `--help` and bad options). */
export function runHostCommand(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  requireBuilt();
  return runNodeScript(HOST_BIN, args, env);
}

/** Starts the command and resolves once it prints the URL it listens on. */
export function spawnHostCommand(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<HostProcess> {
  requireBuilt();
  const child = spawn(process.execPath, [HOST_BIN, ...args], { env: childEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let stdout = '';
  let stderr = '';
  const closed = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      started.delete(child);
      resolve(code);
    }),
  );
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the command did not start in time:\n${stdout}${stderr}`)), 90_000);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({
        url,
        child,
        stdout: () => stdout,
        stop: async (signal = 'SIGTERM') => {
          child.kill(signal);
          const code = await closed;
          return { code, stdout, stderr };
        },
      });
    });
    void closed.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the command exited ${code} before listening:\n${stdout}${stderr}`));
    });
  });
}

/**
 * Stops every process a test started and that is still running, for
 * `afterEach`/`afterAll`: SIGKILL by default; SIGTERM lets the demo stop the hosts it started.
 */
export async function stopAllHostCommands(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  await Promise.all(
    [...started].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('close', () => resolve());
          child.kill(signal);
        }),
    ),
  );
  started.clear();
}
