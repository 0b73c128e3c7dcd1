import fc from 'fast-check';
import { createChatCodec } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { jsonArb } from '../../../test-support/v1-arbitraries.js';
import { scoutCodec, scoutProducts } from '../test/scout-products.js';
import {
  createChatFrameDecoder,
  encodeLegacyChatFrame,
  papercup,
  scout,
  upgradeLegacyChatFrame,
  type LegacyDialect,
  type LegacyProductEvents,
} from './index.js';
import { runs } from '../../../test-support/property-runs.js';

const IDENTITY = { conversationId: 'conv_1', turnId: 'turn_1', eventId: 'evt_3', seq: 3, occurredAt: '2026-11-30T09:00:00Z' } as const;
const envelopeOf = (event: unknown) => ({ schemaVersion: 1, ...IDENTITY, event });
const scoutFrame = (data: Record<string, unknown>) => ({ data: JSON.stringify(data) });
const PRODUCTS = { type: 'products', products: [{ id: 'p1' }] };

// Papercup carries a product's frames under their SSE event name, whatever JSON their data is.
const papercupCodec = createChatCodec({ events: { 'acme.billing': { schema: z.unknown(), channel: 'state' } } });
const papercupProducts = { codec: papercupCodec, events: { billing: 'acme.billing' } } as const;

describe('scout domain events and registered product events (DESIGN §3.3, §5; issue 13)', () => {
  it('without a registration a domain event stays unsupported-event, as before', () => {
    expect(upgradeLegacyChatFrame(scoutFrame(PRODUCTS), { ...IDENTITY, dialect: scout })).toEqual({
      ok: false,
      code: 'unsupported-event',
      message: '"products" is not an event of this dialect',
    });
  });

  it('with one it lifts into the product event: the data without its type field is the event data', () => {
    expect(upgradeLegacyChatFrame(scoutFrame(PRODUCTS), { ...IDENTITY, dialect: scout, products: scoutProducts })).toEqual({
      ok: true,
      kind: 'envelope',
      envelope: envelopeOf({ type: 'scout.products', data: { products: [{ id: 'p1' }] } }),
      event: PRODUCTS,
    });
  });

  it('a domain event the host did not map stays unsupported-event; one its schema refuses is invalid-envelope at the field', () => {
    const context = { ...IDENTITY, dialect: scout, products: scoutProducts };
    expect(upgradeLegacyChatFrame(scoutFrame({ type: 'highlight', productId: 'p1' }), context)).toMatchObject({
      ok: false,
      code: 'unsupported-event',
    });
    expect(upgradeLegacyChatFrame(scoutFrame({ type: 'products', products: 'nope' }), context)).toMatchObject({
      ok: false,
      code: 'invalid-envelope',
      issues: [{ path: ['event', 'data', 'products'] }],
    });
  });

  it('base frames upgrade as before beside a registration', () => {
    expect(
      upgradeLegacyChatFrame(scoutFrame({ type: 'token', content: 'Hi' }), { ...IDENTITY, dialect: scout, products: scoutProducts }),
    ).toMatchObject({
      ok: true,
      envelope: envelopeOf({ type: 'delta', text: 'Hi' }),
    });
  });

  it('projects a product event back onto its domain frame, and refuses what the frame cannot carry', () => {
    const options = { dialect: scout, products: scoutProducts };
    expect(encodeLegacyChatFrame(envelopeOf({ type: 'scout.products', data: { products: [{ id: 'p1' }] } }), options)).toEqual({
      ok: true,
      frame: { data: JSON.stringify(PRODUCTS), id: 'turn_1:3' },
      sse: `id: turn_1:3\ndata: ${JSON.stringify(PRODUCTS)}\n\n`,
    });
    const unmapped = { codec: scoutCodec, events: { products: 'scout.products' } } as const;
    expect(
      encodeLegacyChatFrame(envelopeOf({ type: 'scout.broaden', data: { options: [] } }), { dialect: scout, products: unmapped }),
    ).toEqual({
      ok: false,
      code: 'unsupported-event',
      message: "scout.broaden has no legacy type in the host's product events",
    });
    // Without the registration the strict base parser knows no product event.
    expect(encodeLegacyChatFrame(envelopeOf({ type: 'scout.products', data: { products: [] } }), { dialect: scout })).toMatchObject({
      ok: false,
      code: 'unknown-event',
    });
  });

  it('in a dialect whose data names the type, data that is not an object or holds that field has no legacy form', () => {
    const loose = createChatCodec({ events: { 'scout.cart_mutate': { schema: z.unknown(), channel: 'transient' } } });
    const options = { dialect: scout, products: { codec: loose, events: { cart_mutate: 'scout.cart_mutate' } } } as const;
    for (const data of [['p1'], 'add', null, { type: 'add' }]) {
      expect(encodeLegacyChatFrame(envelopeOf({ type: 'scout.cart_mutate', data }), options)).toMatchObject({
        ok: false,
        code: 'unsupported-event',
      });
    }
  });

  it('papercup carries a product frame under its event name with any JSON data, both ways', () => {
    for (const data of [{ credits: 3 }, [1, 2], 'low', 7, null]) {
      const frame = { event: 'billing', data: JSON.stringify(data) };
      const upgraded = upgradeLegacyChatFrame(frame, { ...IDENTITY, dialect: papercup, products: papercupProducts });
      expect(upgraded).toMatchObject({ ok: true, envelope: envelopeOf({ type: 'acme.billing', data }) });
      if (!upgraded.ok || upgraded.kind !== 'envelope') return;
      expect(encodeLegacyChatFrame(upgraded.envelope, { dialect: papercup, products: papercupProducts })).toMatchObject({
        ok: true,
        frame: { ...frame, id: 'turn_1:3' },
      });
    }
  });

  it.each([
    ['a name the codec did not register', { codec: scoutCodec, events: { products: 'scout.other' } }],
    ['a name that is not namespaced', { codec: scoutCodec, events: { products: 'products' } }],
    ['one name for two legacy types', { codec: scoutCodec, events: { products: 'scout.products', items: 'scout.products' } }],
    ['a legacy type the dialect already has', { codec: scoutCodec, events: { token: 'scout.products' } }],
    ['a codec without its functions', { codec: {}, events: { products: 'scout.products' } }],
    ['events that are not a record', { codec: scoutCodec, events: ['scout.products'] }],
  ])('products with %s are invalid-options (createChatFrameDecoder throws TypeError)', (_name, products) => {
    const given = products as unknown as LegacyProductEvents;
    expect(upgradeLegacyChatFrame(scoutFrame(PRODUCTS), { ...IDENTITY, dialect: scout, products: given })).toMatchObject({
      ok: false,
      code: 'invalid-options',
    });
    expect(encodeLegacyChatFrame(envelopeOf({ type: 'delta', text: 'x' }), { dialect: scout, products: given })).toMatchObject({
      ok: false,
      code: 'invalid-options',
    });
    const identify = () => ({ eventId: 'evt_1', occurredAt: '2026-11-30T09:00:00Z' });
    expect(() =>
      createChatFrameDecoder({ dialect: scout, context: { conversationId: 'conv_1', turnId: 'turn_1', identify, products: given } }),
    ).toThrow(TypeError);
  });

  it('the frame decoder lifts registered domain events in seq order, and asks no identity for one it refuses', () => {
    const asked: number[] = [];
    const decoder = createChatFrameDecoder({
      dialect: scout,
      context: {
        conversationId: 'conv_1',
        turnId: 'turn_1',
        identify: ({ seq }) => {
          asked.push(seq);
          return { eventId: `evt_${seq}`, occurredAt: '2026-11-30T09:00:00Z' };
        },
        products: scoutProducts,
      },
    });
    expect(decoder.decode(scoutFrame({ type: 'highlight' }))).toMatchObject({ ok: false, code: 'unsupported-event' });
    expect(decoder.decode(scoutFrame(PRODUCTS))).toMatchObject({ ok: true, envelope: { seq: 1, event: { type: 'scout.products' } } });
    expect(decoder.decode(scoutFrame({ type: 'token', content: 'Hi' }))).toMatchObject({ ok: true, envelope: { seq: 2 } });
    expect(asked).toEqual([1, 2]);
    expect(decoder.counts()).toEqual({ v1: 0, legacy: 2, transport: 0, unsupported: 1, refusals: { 'unsupported-event': 1 } });
  });

  it('the frame decoder reads a v1 product envelope through the host’s codec; without products it is unknown-event', () => {
    const envelope = { ...envelopeOf({ type: 'scout.products', data: { products: [{ id: 'p1' }] } }), seq: 1 };
    const message = { event: 'scout.products', data: JSON.stringify(envelope), id: 'turn_1:1' };
    const identify = () => ({ eventId: 'evt_9', occurredAt: '2026-11-30T09:00:00Z' });
    const withProducts = createChatFrameDecoder({
      dialect: scout,
      context: { conversationId: 'conv_1', turnId: 'turn_1', identify, products: scoutProducts },
    });
    expect(withProducts.decode(message)).toEqual({ ok: true, kind: 'envelope', source: 'v1', envelope });
    const without = createChatFrameDecoder({ dialect: scout, context: { conversationId: 'conv_1', turnId: 'turn_1', identify } });
    expect(without.decode(message)).toMatchObject({ ok: false, code: 'unknown-event' });
  });

  it('property: encode(upgrade(f)) equals f for every product frame, in both dialects', () => {
    const loose = createChatCodec({ events: { 'acme.note': { schema: z.unknown(), channel: 'event' } } });
    const products = { codec: loose, events: { note: 'acme.note' } } as const;
    const objectArb = fc.dictionary(
      fc.string().filter((key) => !['type', '__proto__', 'constructor', 'prototype'].includes(key)),
      jsonArb,
      { maxKeys: 4 },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          objectArb.map((data) => ({ dialect: scout as LegacyDialect, frame: scoutFrame({ type: 'note', ...data }) })),
          jsonArb.map((data) => ({ dialect: papercup as LegacyDialect, frame: { event: 'note', data: JSON.stringify(data) } })),
        ),
        ({ dialect, frame }) => {
          const upgraded = upgradeLegacyChatFrame(frame, { ...IDENTITY, dialect, products });
          if (!upgraded.ok || upgraded.kind !== 'envelope') throw new Error(JSON.stringify(upgraded));
          const encoded = encodeLegacyChatFrame(upgraded.envelope, { dialect, products });
          if (!encoded.ok) throw new Error(encoded.message);
          expect(JSON.parse(encoded.frame.data)).toEqual(JSON.parse(frame.data));
          expect(encoded.frame.event).toBe('event' in frame ? frame.event : undefined);
        },
      ),
      { numRuns: runs(300) },
    );
  });
});
