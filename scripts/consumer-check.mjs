#!/usr/bin/env node
// `pnpm consumer` (after `pnpm build`; `.ci/run` runs it after `pnpm test`):
// installs the packages as an app meets them (issue 14, DESIGN §2.8). Every
// public package is packed with `pnpm pack`; then, once per zod line of the peer
// range (the lowest release each line admits), a fresh project outside the
// workspace installs the tarballs with plain npm and
//   1. without the testkit: typechecks a TypeScript consumer under NodeNext (an
//      ES module and a CommonJS module) and under `bundler` resolution, runs it
//      as ESM and as CJS (real calls into every package and every facade
//      subpath, the host library included), and finds no fast-check, pure-rand,
//      vitest, testkit, pg or PGlite in package-lock.json (the store and the
//      host load without a database driver);
//   2. with the testkit added as a dev dependency: does the same for
//      `@papercusp/chat-protocol/testkit`, and still finds no fast-check,
//      pure-rand or vitest (optional peers the app did not ask for);
//   3. with the command package added (which depends on both database drivers,
//      so it comes after the check that the store and the host load without
//      them): runs its `chat-protocol-host` command from node_modules/.bin on
//      PGlite until it listens, then stops it with SIGTERM and expects exit code 0.
// Exit code 0 when every check passes, 1 with the failing step otherwise. The
// temporary directory is removed either way (`CONSUMER_KEEP=1` keeps it).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const TEST_TOOLING = ['fast-check', 'pure-rand', 'vitest'];
// eventsource-parser is no longer among them: it is the SSE transport's parser, a dependency of @papercusp/chat-protocol-sse.
const TESTKIT_ONLY = ['@papercusp/chat-protocol-testkit'];
// The database drivers: the command's dependencies, optional peers of the store, never the host library's.
const DRIVERS = ['pg', '@electric-sql/pglite'];
// Installed after the app's checks: it depends on pg and PGlite, which the store and the host must load without.
const COMMAND = '@papercusp/chat-protocol-host-command';

/** Fails the check with a message saying which step broke. */
class CheckFailure extends Error {}

function step(text) {
  console.log(`  ${text}`);
}

function run(command, args, options) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  } catch (error) {
    const output = [error.stdout, error.stderr].filter(Boolean).join('\n').trim();
    throw new CheckFailure(`${command} ${args.join(' ')} failed in ${options?.cwd ?? root}:\n${output}`);
  }
}

/** The public packages, by folder, with their package.json. */
function publicPackages() {
  return readdirSync(join(root, 'packages'))
    .map((folder) => ({ folder, manifest: JSON.parse(readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => manifest.private !== true);
}

/** The lowest version each `||` branch of a caret range admits: `^3.25.76 || ^4.0.0` gives 3.25.76 and 4.0.0. */
function lineFloors(range) {
  return range.split('||').map((branch) => {
    const floor = /^\s*\^(\d+\.\d+\.\d+)\s*$/.exec(branch);
    if (floor === null) throw new CheckFailure(`the zod peer range ${JSON.stringify(range)} is not a union of caret ranges`);
    return floor[1];
  });
}

function pack(packages, destination) {
  const tarballs = new Map();
  for (const { folder, manifest } of packages) {
    const before = new Set(readdirSync(destination));
    run('pnpm', ['pack', '--pack-destination', destination], { cwd: join(root, 'packages', folder) });
    const [file] = readdirSync(destination).filter((name) => !before.has(name));
    if (file === undefined) throw new CheckFailure(`pnpm pack wrote no tarball for ${manifest.name}`);
    tarballs.set(manifest.name, join(destination, file));
  }
  return tarballs;
}

function lockedPackages(project) {
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'));
  return new Set(Object.keys(lock.packages ?? {}).map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)));
}

function assertAbsent(project, names, when) {
  const locked = lockedPackages(project);
  const present = names.filter((name) => locked.has(name));
  if (present.length > 0) throw new CheckFailure(`package-lock.json ${when} holds ${present.join(', ')}`);
  step(`package-lock.json holds none of ${names.join(', ')}`);
}

// The consumer's code: the same text is an ES module (.mts), a CommonJS module
// (.cts, whose imports TypeScript turns into require calls) and a bundler
// module (.ts). Each call asserts its exact result; the summary line is printed last.
const APP_SOURCE = `
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as z from 'zod/v4/mini';
import { applyChatEvent, createChatState, parseChatEnvelope } from '@papercusp/chat-protocol';
import { chatEventEnvelopeJsonSchema, createCardCodec, defineCardKind, validateCardResponse } from '@papercusp/chat-protocol-core';
import { serializeAskTag, splitTurnText, type AskBlock } from '@papercusp/chat-protocol/blocks';
import { parseAskBlock } from '@papercusp/chat-protocol-blocks';
import { InteractionResolver } from '@papercusp/chat-protocol/interactions';
import { decodeLegacyChatFrame, scout } from '@papercusp/chat-protocol/legacy';
import { TurnRecovery, createTurnId, isTurnId } from '@papercusp/chat-protocol/recovery';
import { CHAT_SSE_EVENT_NAMES, parseChatMessageEvent } from '@papercusp/chat-protocol-sse';
import { isChatIdentifier, migrateChatStore } from '@papercusp/chat-protocol-postgres';
import { createChatHost, createScriptedChatAgent, isRouteId } from '@papercusp/chat-protocol-host';

const requireFromApp = createRequire(process.cwd() + '/');
const checked: string[] = [];

// core at the root: an envelope parsed and folded into state.
const parsed = parseChatEnvelope({
  schemaVersion: 1, conversationId: 'conv_1', turnId: 'turn_1', eventId: 'evt_1', seq: 1,
  occurredAt: '2026-11-30T09:00:00Z', event: { type: 'delta', text: 'Hi <ask>{"question":"Close it?"}</ask>' },
});
if (!parsed.ok) throw new Error(parsed.message);
const applied = applyChatEvent(createChatState('conv_1'), parsed.value);
if (!applied.ok) throw new Error(applied.message);
checked.push('core');

// core's zod schemas: the rules that differ between zod lines hold under this one.
const rating = defineCardKind({
  presentation: z.strictObject({ maxStars: z.int() }).check(z.refine((presentation) => presentation.maxStars <= 10, { message: 'at most 10 stars', path: ['maxStars'] })),
  value: z.strictObject({ stars: z.int() }),
});
const codec = createCardCodec({ kinds: { rating } });
const card = { correlationId: 'card_1', createdAt: '2026-11-30T09:00:00Z', prompt: 'How was it?', presentation: { kind: 'rating' as const, maxStars: 11 } };
assert.deepEqual(codec.parseCard(card), { ok: false, code: 'invalid-card', message: 'the card does not match the v1 card schema', issues: [{ path: ['presentation', 'maxStars'], message: 'at most 10 stars' }] });
const confirm = { correlationId: 'card_1', createdAt: '2026-11-30T09:00:00Z', prompt: 'Delete?', presentation: { kind: 'confirm' as const } };
assert.equal((validateCardResponse(confirm, { action: 'submit', correlationId: 'card_1' }) as { code?: string }).code, 'invalid-response');
const shipped = readFileSync(requireFromApp.resolve('@papercusp/chat-protocol-core/schema/chat-event-envelope.v1.json'), 'utf8');
assert.equal(JSON.stringify(chatEventEnvelopeJsonSchema(), null, 2) + '\\n', shipped);
checked.push('core schemas');

// /blocks and the blocks package: the same functions, an optional key never undefined.
const [text, ask] = splitTurnText(applied.state.turns[0]?.text ?? '');
assert.deepEqual([text?.kind, ask?.kind], ['text', 'ask']);
assert.deepEqual(parseAskBlock({ question: ' Close it? ', refs: [] }), { question: 'Close it?' });
const block: AskBlock = { question: 'Close it?' };
assert.equal(serializeAskTag(block), '<ask>{"question":"Close it?"}</ask>');
// @ts-expect-error an optional key is absent, never undefined, in the types too
const undefinedKey: AskBlock = { question: 'Close it?', refs: undefined };
assert.throws(() => serializeAskTag(undefinedKey), new TypeError('invalid ask block at refs: expected array'));
checked.push('blocks');

// /legacy
const legacy = decodeLegacyChatFrame({ data: '{"type":"token","content":"Hi"}' }, { dialect: scout });
assert.deepEqual(legacy.ok && legacy.value, { type: 'token', content: 'Hi' });
checked.push('legacy');

// /recovery and /interactions: the brand checks agree with the other module system's build.
const turnId = createTurnId({ getRandomValues: (bytes) => bytes.fill(7) });
assert.equal(isTurnId(turnId), true);
const recovery = new TurnRecovery({ capabilities: {}, authorize: () => true } as never);
const resolver = new InteractionResolver({ store: { read: async () => ({ record: null }), transact: async () => ({ committed: false }) }, validate: () => ({ ok: true }) } as never);
const otherBuild = { recovery: requireFromApp('@papercusp/chat-protocol-recovery'), interactions: requireFromApp('@papercusp/chat-protocol-interactions') };
assert.deepEqual([TurnRecovery.is(recovery), otherBuild.recovery.TurnRecovery.is(recovery), TurnRecovery.is(resolver)], [true, true, false]);
assert.deepEqual([InteractionResolver.is(resolver), otherBuild.interactions.InteractionResolver.is(resolver), InteractionResolver.is(recovery)], [true, true, false]);
checked.push('recovery', 'interactions');

// sse: an EventSource message event read strictly, by the names every frame carries.
const frame = { schemaVersion: 1, conversationId: 'conv_1', turnId: 'turn_1', eventId: 'evt_1', seq: 1, occurredAt: '2026-11-30T09:00:00Z', event: { type: 'delta', text: 'Hi' } };
assert.equal(CHAT_SSE_EVENT_NAMES.includes('delta'), true);
assert.deepEqual(parseChatMessageEvent({ type: 'delta', data: JSON.stringify(frame), lastEventId: 'turn_1:1' }), { ok: true, value: frame });
checked.push('sse');

// postgres: it loads without either driver installed (both are optional peers).
assert.throws(() => requireFromApp.resolve('pg'));
assert.throws(() => requireFromApp.resolve('@electric-sql/pglite'));
assert.deepEqual([isChatIdentifier('chat_protocol'), isChatIdentifier('Chat')], [true, false]);
assert.equal(typeof migrateChatStore, 'function');
checked.push('postgres');

// host: the library loads without either driver too (they are the command's), and without @opentelemetry/api (an
// optional peer it imports nothing of, not even a type: this file typechecks with skipLibCheck false); its handler
// answers an unauthenticated request before it touches a store; the summary line waits for that answer.
assert.throws(() => requireFromApp.resolve('@opentelemetry/api'));
const host = createChatHost({ store: {} as never, agent: createScriptedChatAgent(), authenticate: () => null });
assert.deepEqual([isRouteId('conv_1'), isRouteId('../conv_1')], [true, false]);
host(new Request('http://host.example/v1/conversations/conv_1/state'))
  .then(async (response) => {
    assert.deepEqual([response.status, ((await response.json()) as { code?: string }).code], [401, 'unauthenticated']);
    checked.push('host');
    console.log(checked.join(', '));
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
`;

const TESTKIT_SOURCE = `
import * as assert from 'node:assert/strict';
import { createFakeDatabase, createFakeTurnStore, listGoldenSessions, replayGoldenSession } from '@papercusp/chat-protocol/testkit';
import { TurnRecovery } from '@papercusp/chat-protocol/recovery';

async function main(): Promise<void> {
  const database = createFakeDatabase({ seed: 1 });
  const store = createFakeTurnStore(database);
  store.grant('conv_1', 'user_1');
  const started = await new TurnRecovery(store.adapter()).startTurn({ caller: 'user_1', conversationId: 'conv_1', turnId: 'turn_1', effectIds: ['call_1'] });
  assert.equal(started.ok, true);
  const [first] = listGoldenSessions();
  assert.ok(first !== undefined);
  assert.equal(replayGoldenSession(first.name).ok, true);
  console.log('testkit');
}
main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

function tsconfig(compilerOptions, files) {
  return JSON.stringify(
    {
      compilerOptions: {
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        target: 'ES2022',
        lib: ['ES2022'],
        types: ['node'],
        typeRoots: [join(root, 'node_modules', '@types')],
        ...compilerOptions,
      },
      files,
    },
    null,
    2,
  );
}

/** Typechecks `name` under NodeNext (emitting it as .mjs and .cjs) and under bundler, then runs both builds. */
function checkConsumer(project, name, source, expected) {
  writeFileSync(join(project, `${name}.mts`), source);
  writeFileSync(join(project, `${name}.cts`), source);
  writeFileSync(join(project, `${name}.ts`), source);
  writeFileSync(
    join(project, `tsconfig.${name}.json`),
    tsconfig({ module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'out' }, [`${name}.mts`, `${name}.cts`]),
  );
  writeFileSync(
    join(project, `tsconfig.${name}.bundler.json`),
    tsconfig({ module: 'ESNext', moduleResolution: 'bundler', noEmit: true }, [`${name}.ts`]),
  );
  run(tsc, ['-p', `tsconfig.${name}.json`], { cwd: project });
  step(`${name}: typechecks under module/moduleResolution NodeNext (ESM .mts and CommonJS .cts)`);
  run(tsc, ['-p', `tsconfig.${name}.bundler.json`], { cwd: project });
  step(`${name}: typechecks under moduleResolution bundler`);
  for (const file of [`out/${name}.mjs`, `out/${name}.cjs`]) {
    const printed = run(process.execPath, [file], { cwd: project }).trim();
    if (printed !== expected) throw new CheckFailure(`${file} printed ${JSON.stringify(printed)}, expected ${JSON.stringify(expected)}`);
    step(`${name}: runs as ${file.endsWith('.mjs') ? 'ESM' : 'CJS'} (${printed})`);
  }
}

function checkZodLine(workspace, tarballs, zodVersion) {
  console.log(`\nzod ${zodVersion}`);
  const project = join(workspace, `app-zod-${zodVersion}`);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer-app', version: '1.0.0', private: true }, null, 2));
  const app = [...tarballs].filter(([name]) => name !== '@papercusp/chat-protocol-testkit' && name !== COMMAND).map(([, file]) => file);
  const npm = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
  run('npm', ['install', ...npm, ...app, `zod@${zodVersion}`], { cwd: project });
  step(`npm installed ${app.length} tarballs and zod@${zodVersion}, without the testkit`);
  assertAbsent(project, [...TEST_TOOLING, ...TESTKIT_ONLY, ...DRIVERS], 'of an app without the testkit or the command');
  checkConsumer(project, 'app', APP_SOURCE, 'core, core schemas, blocks, legacy, recovery, interactions, sse, postgres, host');

  run('npm', ['install', ...npm, '--save-dev', tarballs.get('@papercusp/chat-protocol-testkit')], { cwd: project });
  step('npm added the testkit as a dev dependency');
  assertAbsent(project, TEST_TOOLING, 'of an app with the testkit but not its optional peers');
  checkConsumer(project, 'testkit', TESTKIT_SOURCE, 'testkit');
}

/** Installs the command package into `project` and runs its command until it listens, then stops it. */
async function checkHostCommand(project, tarball) {
  console.log('\nthe chat-protocol-host command');
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], { cwd: project });
  const drivers = DRIVERS.filter((name) => lockedPackages(project).has(name));
  if (drivers.length !== DRIVERS.length)
    throw new CheckFailure(`the command package brought ${drivers.join(', ') || 'no driver'}, expected ${DRIVERS.join(', ')}`);
  step(`npm added ${COMMAND} (and with it ${DRIVERS.join(' and ')})`);
  const bin = join(project, 'node_modules', '.bin', 'chat-protocol-host');
  const child = spawn(bin, ['--port', '0', '--data-dir', join(project, 'host-data')], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('close', (code) => resolve(code)));
  const listening = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 60_000);
    child.stdout.on('data', () => {
      if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(output)) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    void exited.then(() => resolve(false));
  });
  child.kill('SIGTERM');
  const code = await exited;
  if (!listening || code !== 0) throw new CheckFailure(`chat-protocol-host did not start and stop cleanly (exit ${code}):\n${output}`);
  step(`chat-protocol-host: ${output.trim().split('\n').join('; ')}`);
}

const workspace = mkdtempSync(join(tmpdir(), 'chat-protocol-consumer-'));
try {
  const packages = publicPackages();
  const core = packages.find(({ manifest }) => manifest.name === '@papercusp/chat-protocol-core');
  const zodVersions = lineFloors(core?.manifest.peerDependencies?.zod ?? '');
  console.log(`consumer check: ${packages.length} packages, zod ${zodVersions.join(' and ')}, in ${workspace}`);
  const destination = join(workspace, 'tarballs');
  mkdirSync(destination);
  const tarballs = pack(packages, destination);
  step(`packed ${[...tarballs.keys()].join(', ')}`);
  for (const zodVersion of zodVersions) checkZodLine(workspace, tarballs, zodVersion);
  await checkHostCommand(join(workspace, `app-zod-${zodVersions.at(-1)}`), tarballs.get(COMMAND));
  console.log('\nconsumer check passed');
} catch (error) {
  console.error(`\nconsumer check failed: ${error instanceof CheckFailure ? error.message : (error?.stack ?? error)}`);
  process.exitCode = 1;
} finally {
  if (process.env['CONSUMER_KEEP'] === undefined) rmSync(workspace, { recursive: true, force: true });
}
