/**
 * A third dialect, declared through the public API only: the dotted vocabulary
 * some hosts stream, with the type in the data's `kind` field and a `ping`
 * heartbeat. It proves a host adds a dialect without touching the package.
 */
// The package's public entry, as a host imports it (nothing internal).
import { defineLegacyDialect } from '../src/index.js';

export const dotted = defineLegacyDialect({
  name: 'dotted',
  typeFrom: { field: 'kind' },
  types: {
    ping: { transport: 'heartbeat' },
    'message.delta': { v1: 'delta', fields: { delta: { kind: 'text', v1: 'text' } } },
    'tool.activity': {
      v1: 'tool_call',
      fields: {
        toolCallId: { kind: 'call-id', v1: 'callId' },
        toolName: { kind: 'name', v1: 'name' },
        args: { kind: 'json?', v1: 'input' },
      },
    },
    'tool.result': {
      v1: 'tool_result',
      fields: {
        toolCallId: { kind: 'call-id', v1: 'callId' },
        toolName: { kind: 'name', v1: 'name' },
        success: { kind: 'outcome', v1: 'status' },
      },
    },
    'run.finished': { v1: 'done', fixed: { status: 'completed' } },
  },
});
