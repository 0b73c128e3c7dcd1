import { createServer } from 'node:http';
import { HttpAgent } from '@ag-ui/client';
import { EventEncoder } from '@ag-ui/encoder';
import { createAgUiChatAgent } from '@papercusp/chat-protocol-ag-ui';

// Any AG-UI agent server will do; this one answers each run with how many messages it was sent.
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const { threadId, runId, messages } = JSON.parse(body);
    const encoder = new EventEncoder();
    response.writeHead(200, { 'content-type': encoder.getContentType() });
    for (const event of [
      { type: 'RUN_STARTED', threadId, runId },
      { type: 'TEXT_MESSAGE_START', messageId: 'msg_1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_1', delta: `You sent ${messages.length} messages.` },
      { type: 'TEXT_MESSAGE_END', messageId: 'msg_1' },
      { type: 'RUN_FINISHED', threadId, runId },
    ])
      response.write(encoder.encode(event));
    response.end();
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

const agent = createAgUiChatAgent({ agent: new HttpAgent({ url: `http://127.0.0.1:${server.address().port}/` }) });

// The host runs the agent: createChatHost({ store, agent, authenticate }). By hand, one turn:
const history = [
  { id: 'turn_1', role: 'user', text: 'Where is order 1042?' },
  { id: 'turn_1', role: 'assistant', text: 'It shipped on Monday.' },
];
const turn = { conversationId: 'conv_1', turnId: 'turn_2', text: 'When will it arrive?' };
const context = { caller: null, userInput: { text: turn.text }, history, historyOmitted: 0, signal: new AbortController().signal };
for await (const step of agent.run(turn, context)) console.log(JSON.stringify(step));
server.close();
