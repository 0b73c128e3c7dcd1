/**
 * Test support for the host's multi-process tests: reference hosts each in a
 * child process of its own (`test/host-process.mjs`, the package's build, its
 * own pool on a real Postgres server), what each printed (its port, its
 * scripted refund's launches, whether it drained), how it exited, and one
 * place that kills every child a test file started; and a poll for what the
 * processes do. Not part of the package's build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Host } from '../../../test-support/host-requests.js';

const HOST_PROCESS = fileURLToPath(new URL('../test/host-process.mjs', import.meta.url));

/** How a host process ended: its exit code or signal, and whether it printed `{"drained":true}` first. */
interface HostProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly drained: boolean;
}

/** A host in a child process; `effects` is its launch ledger (the turn ids whose scripted refund started in it). */
export interface HostProcess extends Host {
  readonly child: ChildProcess;
  /** Resolves once the process exited and its output was read. */
  readonly exited: Promise<HostProcessExit>;
}

/** The host processes of one test file: {@link HostProcesses.spawn} starts one, `killAll` ends every one still running. */
export interface HostProcesses {
  /** Starts a host on the server at `url` in `schema` with `options` (host options, `toolDelayMs`, `deltaDelayMs`, `drainMs`); resolves once it listens. */
  spawn(url: string, schema: string, options: Readonly<Record<string, number>>): Promise<HostProcess>;
  /** SIGKILLs every child still running (a stopped one too) and resolves once all exited. */
  killAll(): Promise<void>;
}

/** A fresh set of host processes; call its `killAll` in `afterAll`, so no child outlives the file, even on a failure. */
export function hostProcesses(): HostProcesses {
  const started: Pick<HostProcess, 'child' | 'exited'>[] = [];
  const spawnHost = async (url: string, schema: string, options: Readonly<Record<string, number>>): Promise<HostProcess> => {
    const child = spawn(process.execPath, [HOST_PROCESS, url, schema, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const effects: string[] = [];
    let drained = false;
    // `close`, not `exit`: by then its stdout was read to the end, so a last `drained` line is seen.
    const exited = new Promise<HostProcessExit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, drained })));
    started.push({ child, exited });
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const message = JSON.parse(line) as { port?: number; effect?: string; drained?: boolean };
        if (message.port !== undefined) resolve(message.port);
        if (message.effect !== undefined) effects.push(message.effect);
        if (message.drained === true) drained = true;
      });
      void exited.then(({ code, signal }) => reject(new Error(`the host process ended before listening: ${code ?? signal}`)));
    });
    return { base: `http://127.0.0.1:${port}`, effects, child, exited };
  };
  const killAll = async (): Promise<void> => {
    const running = started.filter(({ child }) => child.exitCode === null && child.signalCode === null);
    for (const { child } of running) child.kill('SIGKILL');
    await Promise.all(running.map(({ exited }) => exited));
  };
  return { spawn: spawnHost, killAll };
}

/** Resolves once `condition` holds, asked every 50 ms; rejects past `timeoutMs`. */
export async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
