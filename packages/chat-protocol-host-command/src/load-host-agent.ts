/**
 * `--agent <path>`: the user's agent module, loaded once at startup. Its
 * default export is a `ChatAgent`, or a function given the command's agent
 * options that returns one (or a promise of one). It owns loading and the
 * shape check, so a module that is missing, throws, or exports something else
 * is one clear line and exit code 2, never a stack trace; it runs nothing.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import type { ChatAgent } from '@papercusp/chat-protocol-host';

/** What an agent factory is given: the command's settings that concern an agent (no token, no database URL). */
export interface HostCommandAgentOptions {
  /** The `--tool-delay-ms` value, for agents that simulate slow tools. */
  readonly toolDelayMs: number;
  /** The `--card-poll-ms` value. */
  readonly cardPollMs: number;
}

/** A module's default export may be this instead of an agent: called once, at startup. */
export type HostCommandAgentFactory = (options: HostCommandAgentOptions) => ChatAgent | Promise<ChatAgent>;

/** Refusal code of {@link loadHostAgent}: the module could not be loaded or is not an agent. */
export type LoadHostAgentRefusalCode = 'invalid-agent-module';

// The first line of what went wrong, for one line on stderr.
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n', 1)[0]?.trim() || 'no message';
}

// What `run` needs: an object with a `run` function, and `tools` (when given) a list of named tools with `execute`.
function agentProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || typeof (value as { run?: unknown }).run !== 'function') {
    return 'is not a ChatAgent (an object with a run function)';
  }
  const tools: unknown = (value as { tools?: unknown }).tools;
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return 'has tools that are not a list';
  const bad = tools.findIndex(
    (tool: unknown) =>
      typeof tool !== 'object' ||
      tool === null ||
      typeof (tool as { name?: unknown }).name !== 'string' ||
      typeof (tool as { execute?: unknown }).execute !== 'function',
  );
  return bad === -1 ? null : `has tools[${bad}] without a name and an execute function`;
}

/**
 * Imports `path` (relative to `cwd`) and returns its agent. Guarantees: never
 * rejects; a module that cannot be found or throws while loading, a factory
 * that throws or rejects, and a default export that is neither an agent nor a
 * factory of one are each an `invalid-agent-module` refusal whose message
 * names the path and says which.
 */
export async function loadHostAgent(
  path: string,
  options: HostCommandAgentOptions,
  cwd: string = process.cwd(),
): Promise<{ readonly ok: true; readonly value: ChatAgent } | ChatRefusal<LoadHostAgentRefusalCode>> {
  const named = `--agent ${path}`;
  let exported: unknown;
  try {
    const module = (await import(pathToFileURL(resolve(cwd, path)).href)) as { readonly default?: unknown };
    exported = module.default;
  } catch (error) {
    return refuse('invalid-agent-module', `${named}: could not be loaded: ${firstLine(error)}`);
  }
  if (exported === undefined) return refuse('invalid-agent-module', `${named}: has no default export (export default your agent)`);
  let agent: unknown = exported;
  if (typeof exported === 'function') {
    try {
      agent = await (exported as HostCommandAgentFactory)(Object.freeze({ ...options }));
    } catch (error) {
      return refuse('invalid-agent-module', `${named}: its factory threw: ${firstLine(error)}`);
    }
  }
  const problem = agentProblem(agent);
  if (problem !== null) {
    const what = typeof exported === 'function' ? 'what its factory returned' : 'its default export';
    return refuse('invalid-agent-module', `${named}: ${what} ${problem}`);
  }
  return { ok: true, value: agent as ChatAgent };
}
