/**
 * `createAgUiChatAgent`'s types (issue 26): it takes `@ag-ui/client`'s own agents without the package importing
 * them, and what it returns is core's agent seam (`ChatAgent`, DESIGN §11.1), which the host binds to its caller
 * (the host's own type test pins the same against its `ChatAgent`).
 */
import { AbstractAgent, HttpAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import type { ChatAgent, ChatAgentCompletion, ChatAgentFeedback, ChatAgentStep } from '@papercusp/chat-protocol-core';
import { EMPTY, type Observable } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import { createAgUiChatAgent, type AgUiAgentLike, type AgUiChatAgent } from '../index.js';

// A host's caller type, as the reference host's `ChatHostCaller` is to it.
interface HostCaller {
  readonly tenantId: string;
  readonly principalId: string;
}

class ScriptedAgent extends AbstractAgent {
  run(_input: RunAgentInput): Observable<BaseEvent> {
    return EMPTY;
  }
}

describe('createAgUiChatAgent types (issue 26)', () => {
  it("takes @ag-ui/client's HttpAgent and any AbstractAgent subclass as its agent", () => {
    expectTypeOf<HttpAgent>().toExtend<AgUiAgentLike>();
    expectTypeOf<ScriptedAgent>().toExtend<AgUiAgentLike>();
    expectTypeOf(createAgUiChatAgent({ agent: new HttpAgent({ url: 'http://127.0.0.1:1/' }) })).toEqualTypeOf<AgUiChatAgent>();
    expectTypeOf(createAgUiChatAgent({ agent: new ScriptedAgent() })).toEqualTypeOf<AgUiChatAgent>();
  });

  it("refuses what is not an agent: an object without clone, or a clone that cannot run (AbstractAgent's own run-less members)", () => {
    // @ts-expect-error: no clone
    createAgUiChatAgent({ agent: { run: () => EMPTY } });
    // @ts-expect-error: a clone without runAgent, abortRun, detachActiveRun
    createAgUiChatAgent({ agent: { clone: () => ({ threadId: 't' }) } });
  });

  it('an AgUiChatAgent is a ChatAgent for any host caller: the host can run it with its own context', () => {
    expectTypeOf<AgUiChatAgent>().toExtend<ChatAgent<HostCaller>>();
    const agent: ChatAgent<HostCaller> = createAgUiChatAgent({ agent: new HttpAgent({ url: 'http://127.0.0.1:1/' }) });
    expectTypeOf(agent.run).returns.toEqualTypeOf<AsyncGenerator<ChatAgentStep, ChatAgentCompletion | void, ChatAgentFeedback>>();
  });
});
