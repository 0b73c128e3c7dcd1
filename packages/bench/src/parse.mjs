/**
 * The parse benchmark (issue #12, "parsing ahead of every peer"): for three
 * shapes — a text delta, a tool result grounded in one 900-character passage
 * with three sources, and the three-short-blocks tool result — each contender
 * reads the next string of a pool of distinct ones (never one constant string):
 * `JSON.parse` alone (the floor), `parseChatEnvelope`, our own zod/mini schema,
 * and AG-UI and the AI SDK on the same content. It exports contenders and rows;
 * it times nothing itself.
 */
import { EventSchemas } from '@ag-ui/core/schemas';
import { ChatEventEnvelopeSchema, parseChatEnvelope } from '@papercusp/chat-protocol-core';
import { uiMessageChunkSchema } from 'ai';
import { POOL_SIZE, deltaPool, groundedToolResultPool, shortBlocksToolResultPool } from './fixtures.mjs';

/** Goals of issue #12, as ratios to `JSON.parse` of the same strings. */
const PARSE_GOALS = { delta: 1.3, toolResult: 1.5 };

/** The three shapes: contender id prefix, the table's label, its pools and its goal. */
const SHAPES = [
  {
    id: 'delta',
    label: 'delta',
    pool: deltaPool,
    goal: PARSE_GOALS.delta,
    agUiName: 'AG-UI `EventSchemas` TEXT_MESSAGE_CONTENT',
    aiSdkName: 'AI SDK `uiMessageChunkSchema` text-delta',
  },
  {
    id: 'grounded',
    label: 'tool result, one 900-character block, 3 sources',
    pool: groundedToolResultPool,
    goal: PARSE_GOALS.toolResult,
    agUiName: 'AG-UI `EventSchemas` TOOL_CALL_RESULT',
    aiSdkName: 'AI SDK `uiMessageChunkSchema` tool-output-available',
  },
  {
    id: 'tool',
    label: 'tool result, three short blocks',
    pool: shortBlocksToolResultPool,
    goal: PARSE_GOALS.toolResult,
    agUiName: 'AG-UI `EventSchemas` TOOL_CALL_RESULT',
    aiSdkName: 'AI SDK `uiMessageChunkSchema` tool-output-available',
  },
];

// The AI SDK validates each chunk as it reads a stream: `safeValidateTypes` takes the
// lazy schema, calls it, then awaits its `validate` (zod `safeParseAsync`). Same here.
const aiSdkValidate = (value) => uiMessageChunkSchema().validate(value);

const isOk = (result) => result.ok === true;
const isSuccess = (result) => result.success === true;
const isParsed = (value) => typeof value === 'object' && value !== null;

/**
 * A function returning the pool's strings in turn. Each contender gets its own
 * cursor, so every contender reads every string equally often.
 */
function cycle(pool) {
  let index = 0;
  return () => {
    index = (index + 1) & (POOL_SIZE - 1);
    return pool[index];
  };
}

function shapeContenders({ id, pool }) {
  const core = cycle(pool.core);
  const coreFloor = cycle(pool.core);
  const coreSchema = cycle(pool.core);
  const agUi = cycle(pool.agUi);
  const agUiFloor = cycle(pool.agUi);
  const aiSdk = cycle(pool.aiSdk);
  const aiSdkFloor = cycle(pool.aiSdk);
  return [
    { id: `${id}/json`, run: () => JSON.parse(coreFloor()), check: isParsed },
    { id: `${id}/core`, run: () => parseChatEnvelope(core()), check: isOk },
    // The same contract checked by its zod/mini schema: what the hand-written hot path replaces.
    { id: `${id}/zod`, run: () => ChatEventEnvelopeSchema.safeParse(JSON.parse(coreSchema())), check: isSuccess },
    { id: `${id}/ag-ui/json`, run: () => JSON.parse(agUiFloor()), check: isParsed },
    { id: `${id}/ag-ui`, run: () => EventSchemas.safeParse(JSON.parse(agUi())), check: isSuccess },
    { id: `${id}/ai-sdk/json`, run: () => JSON.parse(aiSdkFloor()), check: isParsed },
    { id: `${id}/ai-sdk`, run: () => aiSdkValidate(JSON.parse(aiSdk())), check: isSuccess, isAsync: true },
  ];
}

/** Every parse contender; `delta/core` is also the unit of the reducer and legacy rows. */
export const parseContenders = SHAPES.flatMap(shapeContenders);

/** Every pool string passes its own contender's check, or the run stops before timing anything. */
export async function checkParsePools() {
  for (const { id, pool } of SHAPES) {
    for (const [index, text] of pool.core.entries()) {
      const parsed = parseChatEnvelope(text);
      if (!parsed.ok) throw new Error(`${id}: pool entry ${index} refused: ${parsed.code} ${parsed.message}`);
      if (!ChatEventEnvelopeSchema.safeParse(JSON.parse(text)).success) throw new Error(`${id}: entry ${index} fails the schema`);
      if (!EventSchemas.safeParse(JSON.parse(pool.agUi[index])).success) throw new Error(`${id}: AG-UI entry ${index} refused`);
      if (!(await aiSdkValidate(JSON.parse(pool.aiSdk[index]))).success) throw new Error(`${id}: AI SDK entry ${index} refused`);
    }
  }
}

const bytes = (value) => `${value.toLocaleString('en')} B`;
const meanLength = (strings) => Math.round(strings.reduce((sum, text) => sum + text.length, 0) / strings.length);

/**
 * The parse rows of the results table, three shapes of seven rows. `floor` is
 * the column every goal is stated in: time over `JSON.parse` of our strings.
 */
export function parseRows({ samples, median, medianRatio, times, nanoseconds, verdict }) {
  const ns = (id) => median(samples.get(id));
  const ratio = (id, floorId) => medianRatio(samples.get(id), samples.get(floorId));
  const rows = [];
  for (const { id, label, pool, goal, agUiName, aiSdkName } of SHAPES) {
    const [jsonId, coreId, zodId] = [`${id}/json`, `${id}/core`, `${id}/zod`];
    const coreRatio = ratio(coreId, jsonId);
    const common = { measure: label, input: `${bytes(meanLength(pool.core))} mean` };
    rows.push({
      ...common,
      contender: 'JSON.parse alone (floor)',
      floor: '1.00×',
      ownFloor: '1.00×',
      core: times(ratio(jsonId, coreId)),
      time: nanoseconds(ns(jsonId)),
    });
    rows.push({
      ...common,
      contender: '**parseChatEnvelope**',
      floor: times(coreRatio),
      ownFloor: times(coreRatio),
      core: '1.00×',
      time: nanoseconds(ns(coreId)),
      goal: `≤ ${times(goal)}`,
      met: verdict(coreRatio <= goal),
    });
    rows.push({
      ...common,
      contender: 'the same contract as its zod/mini schema (`ChatEventEnvelopeSchema.safeParse`)',
      floor: times(ratio(zodId, jsonId)),
      ownFloor: times(ratio(zodId, jsonId)),
      core: times(ratio(zodId, coreId)),
      time: nanoseconds(ns(zodId)),
    });
    for (const peer of [
      { id: `${id}/ag-ui`, name: agUiName, strings: pool.agUi },
      { id: `${id}/ai-sdk`, name: aiSdkName, strings: pool.aiSdk },
    ]) {
      const versusCore = ratio(peer.id, coreId);
      rows.push({
        measure: label,
        contender: peer.name,
        input: `${bytes(meanLength(peer.strings))} mean`,
        floor: times(ratio(peer.id, jsonId)),
        ownFloor: times(ratio(peer.id, `${peer.id}/json`)),
        core: times(versusCore),
        time: nanoseconds(ns(peer.id)),
        goal: 'slower than ours',
        met: verdict(versusCore > 1),
      });
    }
  }
  return rows;
}
