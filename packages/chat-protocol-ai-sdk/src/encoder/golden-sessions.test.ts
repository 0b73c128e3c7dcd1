import { listGoldenSessions, replayGoldenSession } from '@papercusp/chat-protocol-testkit';
import type { ChatTurnState } from '@papercusp/chat-protocol-core';
import { readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { encodeSession } from '../../test/encoded-golden-sessions.js';
import type { AiSdkUiMessageChunk } from '../ui-message-chunk.js';

async function readMessage(chunks: readonly AiSdkUiMessageChunk[]): Promise<{ message: UIMessage | undefined; errors: unknown[] }> {
  const errors: unknown[] = [];
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk as UIMessageChunk);
      controller.close();
    },
  });
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream, onError: (error) => errors.push(error) })) message = snapshot;
  return { message, errors };
}

type Part = UIMessage['parts'][number];

function joined(parts: readonly Part[], type: 'text' | 'reasoning'): string {
  return parts.flatMap((part) => (part.type === type ? [part.text] : [])).join('');
}

/** What the AI SDK's message should hold for a turn of core's state: the same text, tools and cards. */
function expectedParts(turn: ChatTurnState) {
  return {
    text: turn.text,
    reasoning: turn.reasoning,
    tools: turn.toolCalls.map((call) => {
      const base = { toolCallId: call.callId, type: `tool-${call.name}`, input: call.input };
      const result = call.result;
      if (result === null || result === undefined) return { ...base, state: 'input-available-or-approval' };
      if (result.status === 'succeeded') {
        return {
          ...base,
          state: 'output-available',
          output: {
            ...(result.summary === undefined ? {} : { summary: result.summary }),
            ...(result.blocks === undefined ? {} : { blocks: result.blocks }),
          },
        };
      }
      if (result.status === 'cancelled') return { ...base, state: 'output-denied' };
      return { ...base, state: 'output-error' };
    }),
    cards: turn.cards.map((card) => card.card),
    provenance: turn.provenance,
    hostState: turn.hostState,
  };
}

function actualParts(message: UIMessage) {
  const dataOf = (type: string) => message.parts.flatMap((part) => (part.type === type ? [(part as { data: unknown }).data] : []));
  return {
    text: joined(message.parts, 'text'),
    reasoning: joined(message.parts, 'reasoning'),
    tools: message.parts.flatMap((part) => {
      if (!part.type.startsWith('tool-')) return [];
      const tool = part as { toolCallId: string; type: string; input?: unknown; state: string; output?: unknown };
      const state = tool.state === 'input-available' || tool.state === 'approval-requested' ? 'input-available-or-approval' : tool.state;
      return [
        {
          toolCallId: tool.toolCallId,
          type: tool.type,
          input: tool.input,
          state,
          ...(tool.state === 'output-available' ? { output: tool.output } : {}),
        },
      ];
    }),
    cards: dataOf('data-card'),
    // Core's state records an absent account route as null.
    provenance: provenanceOf(dataOf('data-provenance').at(-1)),
    hostState: dataOf('data-state').at(-1) ?? null,
  };
}

function provenanceOf(data: unknown): unknown {
  if (data === undefined) return null;
  const { accountRoute, ...rest } = data as { accountRoute?: string | null };
  return { ...rest, accountRoute: accountRoute ?? null };
}

describe('the encoder against the AI SDK 6 (DESIGN §12: proof against the peer’s own code)', () => {
  const schema = uiMessageChunkSchema();
  for (const { name } of listGoldenSessions()) {
    describe(name, () => {
      const replay = (() => {
        const result = replayGoldenSession(name);
        if (!result.ok) throw new Error(result.message);
        return result.value;
      })();
      const { messages } = encodeSession(replay);

      it('writes only chunks the AI SDK’s own uiMessageChunkSchema accepts', async () => {
        const refused: unknown[] = [];
        for (const chunk of messages.flat()) {
          const result = await schema.validate?.(chunk);
          if (result === undefined || !result.success) refused.push(chunk);
        }
        expect(refused).toEqual([]);
        expect(messages.flat().length).toBeGreaterThan(0);
      });

      it('drives readUIMessageStream to one assistant message per turn holding what core’s reducer holds', async () => {
        const turns = replay.expectedState.turns;
        expect(messages.map((chunks) => (chunks[0] as { messageId?: string }).messageId)).toEqual(turns.map((turn) => turn.turnId));
        for (const [index, turn] of turns.entries()) {
          const { message, errors } = await readMessage(messages[index] ?? []);
          const erroredTurn = turn.status === 'failed';
          expect(errors.map((error) => (error as Error).message)).toEqual(erroredTurn && turn.error ? [turn.error.message] : []);
          expect(message?.id).toBe(turn.turnId);
          expect(message?.role).toBe('assistant');
          expect(actualParts(message as UIMessage)).toEqual(expectedParts(turn));
        }
      });
    });
  }
});
