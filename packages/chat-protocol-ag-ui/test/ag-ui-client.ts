/**
 * Test support: runs AG-UI events through `@ag-ui/client`'s own pipeline
 * (`AbstractAgent.runAgent`, which applies `verifyEvents` and then
 * `defaultApplyEvents`), one run at a time, and returns the messages and
 * state the client reached. Dev only: the package never imports the peer.
 */
import { AbstractAgent, type BaseEvent, type Message, type ResumeEntry, type RunAgentInput } from '@ag-ui/client';
import { from, type Observable } from 'rxjs';
import type { AgUiEvent } from '../src/ag-ui-event.js';

class ScriptedAgent extends AbstractAgent {
  private script: readonly AgUiEvent[] = [];

  play(events: readonly AgUiEvent[]): void {
    this.script = events;
  }

  run(_input: RunAgentInput): Observable<BaseEvent> {
    // Our local types are a structural subset of the peer's events.
    return from(this.script as unknown as BaseEvent[]);
  }
}

/** What the AG-UI client reached after the runs. */
export interface AgUiClientOutcome {
  readonly messages: readonly Message[];
  readonly state: unknown;
}

/**
 * Splits a stream at each `RUN_STARTED` and plays each run through the
 * client's `runAgent`; a run after one that ended in interrupts is started
 * with the resume entries `resumeFor` gives for them, as AG-UI requires.
 */
export async function playThroughAgUiClient(
  events: readonly AgUiEvent[],
  threadId: string,
  resumeFor: (interruptIds: readonly string[]) => ResumeEntry[] = () => [],
): Promise<AgUiClientOutcome> {
  const agent = new ScriptedAgent({ threadId, initialMessages: [], initialState: {} });
  const runs: AgUiEvent[][] = [];
  for (const event of events) {
    if (event.type === 'RUN_STARTED') runs.push([]);
    runs.at(-1)?.push(event);
  }
  let pending: readonly string[] = [];
  for (const run of runs) {
    agent.play(run);
    const first = run[0];
    const runId = first !== undefined && first.type === 'RUN_STARTED' ? first.runId : 'run';
    await agent.runAgent(pending.length === 0 ? { runId } : { runId, resume: resumeFor(pending) });
    const last = run.at(-1);
    pending =
      last?.type === 'RUN_FINISHED' && last.outcome?.type === 'interrupt' ? last.outcome.interrupts.map((interrupt) => interrupt.id) : [];
  }
  return { messages: agent.messages, state: agent.state };
}
