import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod/v4/mini';
import {
  CARD_KINDS,
  type CardApproval,
  type CardKind,
  type CardOption,
  type CardOptionStyle,
  type CardPresentationV1,
  type OpenCardSnapshotOf,
  type OpenCardSnapshotV1,
} from './card-schemas.js';
import {
  type CardResponse,
  type CardResponseOf,
  type CardValue,
  type CardValueByKind,
  type PromptOnlyCardValue,
  type PromptOnlyCardValueByKind,
} from './card-responses.js';
import { parseOpenCardSnapshot, type OpenCardRefusalCode } from './parse-card.js';
import type { CardResponseRefusalCode } from './card-response-refusals.js';
import { validateCardResponse } from './validate-card-response.js';
import { baseCardCodec, createCardCodec, defineCardKind, type CardCodec } from './card-codec.js';
import type { ParseResult } from '../primitives/result.js';

const ratingCodec = createCardCodec({
  kinds: {
    rating: {
      presentation: z.strictObject({ maxStars: z.int() }),
      value: z.strictObject({ stars: z.int() }),
    },
  },
});

type RatingPresentation = { kind: 'rating'; maxStars: number };
// A card whose presentation is known to be there (a prompt-only card has none).
type CardWith<Presentation> = OpenCardSnapshotOf<Presentation> & { presentation: Presentation };
type RatingCard = CardWith<RatingPresentation>;

describe('§3.7 card types', () => {
  it('CardResponse (fixed) is the three actions, the submit value being any base kind value', () => {
    expectTypeOf<CardResponse>().toEqualTypeOf<CardResponseOf<CardValue>>();
    expectTypeOf<Extract<CardResponse, { action: 'cancel' }>>().toEqualTypeOf<{
      action: 'cancel';
      correlationId: string;
    }>();
  });

  it('CardValueByKind gives each base kind its value shape', () => {
    expectTypeOf<keyof CardValueByKind>().toEqualTypeOf<CardKind>();
    expectTypeOf<CardValueByKind['text']>().toEqualTypeOf<{ text: string }>();
    expectTypeOf<CardValueByKind['radio']>().toEqualTypeOf<{ optionId: string }>();
    expectTypeOf<CardValueByKind['select']>().toEqualTypeOf<{ optionId: string }>();
    expectTypeOf<CardValueByKind['checkbox']>().toEqualTypeOf<{ optionIds: string[] }>();
    expectTypeOf<CardValueByKind['confirm']>().toEqualTypeOf<{ confirmed: boolean }>();
    expectTypeOf<CardValueByKind['date']>().toEqualTypeOf<{ date: string }>();
    expectTypeOf<CardValueByKind['slider']>().toEqualTypeOf<{ value: number }>();
  });

  it('the presentation union discriminates on kind', () => {
    expectTypeOf<CardPresentationV1['kind']>().toEqualTypeOf<CardKind>();
    expectTypeOf<(typeof CARD_KINDS)[number]>().toEqualTypeOf<CardKind>();
    expectTypeOf<Extract<CardPresentationV1, { kind: 'slider' }>>().toEqualTypeOf<{
      kind: 'slider';
      voiceAnswerable?: boolean | undefined;
      min: number;
      max: number;
      step?: number | undefined;
      unit?: string | undefined;
    }>();
  });

  it('OpenCardSnapshotOf over the base presentation is OpenCardSnapshotV1', () => {
    expectTypeOf<OpenCardSnapshotOf<CardPresentationV1>>().toEqualTypeOf<OpenCardSnapshotV1>();
  });

  it('parseOpenCardSnapshot returns the v1 card or invalid-card', () => {
    expectTypeOf(parseOpenCardSnapshot).returns.toEqualTypeOf<ParseResult<OpenCardSnapshotV1, OpenCardRefusalCode>>();
  });

  it('validateCardResponse on any card gives a CardResponse with the closed refusal union', () => {
    const card = {} as OpenCardSnapshotV1;
    expectTypeOf(validateCardResponse(card, null)).toEqualTypeOf<ParseResult<CardResponseOf<CardValue>, CardResponseRefusalCode>>();
    expectTypeOf(validateCardResponse(card, null)).toExtend<ParseResult<CardResponse, CardResponseRefusalCode>>();
  });

  it('validateCardResponse on a card of a known kind types the value by that kind', () => {
    const card = {} as CardWith<Extract<CardPresentationV1, { kind: 'checkbox' }>>;
    const result = validateCardResponse(card, null);
    if (result.ok && result.value.action === 'submit') {
      expectTypeOf(result.value.value).toEqualTypeOf<{ optionIds: string[] }>();
    }
  });

  it('the base codec is the codec of the base vocabulary', () => {
    expectTypeOf(baseCardCodec).toEqualTypeOf<CardCodec<CardPresentationV1, CardValueByKind>>();
  });
});

describe('§3.7 createCardCodec is typed end to end', () => {
  it("a product kind joins the codec's presentation union next to the base kinds", () => {
    const parsed = ratingCodec.parseCard(null);
    if (parsed.ok) {
      expectTypeOf(parsed.value.presentation).toEqualTypeOf<CardPresentationV1 | RatingPresentation | undefined>();
      expectTypeOf(parsed.value.presentation?.kind).toEqualTypeOf<CardKind | 'rating' | undefined>();
      if (parsed.value.presentation?.kind === 'rating') {
        expectTypeOf(parsed.value.presentation.maxStars).toEqualTypeOf<number>();
      }
    }
    expectTypeOf(parsed).toExtend<ParseResult<unknown, 'invalid-card'>>();
  });

  it("a submitted value's type follows the card's kind", () => {
    const ratingCard = {} as RatingCard;
    const rating = ratingCodec.validateResponse(ratingCard, null);
    if (rating.ok && rating.value.action === 'submit') {
      expectTypeOf(rating.value.value).toEqualTypeOf<{ stars: number }>();
    }
    const sliderCard = {} as CardWith<Extract<CardPresentationV1, { kind: 'slider' }>>;
    const slider = ratingCodec.validateResponse(sliderCard, null);
    if (slider.ok && slider.value.action === 'submit') {
      expectTypeOf(slider.value.value).toEqualTypeOf<{ value: number }>();
    }
    expectTypeOf(rating).toExtend<ParseResult<unknown, CardResponseRefusalCode>>();
  });

  it('a card of any codec kind gives the union of all values', () => {
    const parsed = ratingCodec.parseCard(null);
    if (parsed.ok) {
      const result = ratingCodec.validateResponse(parsed.value, null);
      if (result.ok && result.value.action === 'submit') {
        expectTypeOf(result.value.value).toEqualTypeOf<CardValue | { stars: number }>();
      }
    }
  });

  it('the kinds list and the schemas carry the product kinds', () => {
    expectTypeOf(ratingCodec.kinds).toEqualTypeOf<readonly (CardKind | 'rating')[]>();
    expectTypeOf<z.output<typeof ratingCodec.CardSchema>>().toEqualTypeOf<OpenCardSnapshotOf<CardPresentationV1 | RatingPresentation>>();
    expectTypeOf<z.output<typeof ratingCodec.ResponseSchema>>().toEqualTypeOf<CardResponseOf<CardValue | { stars: number }>>();
  });

  it('a product validate rule sees the typed presentation fields and value', () => {
    createCardCodec({
      kinds: {
        rating: {
          presentation: z.strictObject({ maxStars: z.int() }),
          value: z.strictObject({ stars: z.int() }),
          validate(presentation: { maxStars: number }, value: { stars: number }) {
            return value.stars > presentation.maxStars ? [{ path: ['stars'], message: 'too many stars' }] : undefined;
          },
        },
      },
    });
  });

  it('defineCardKind infers the parameters of validate from the schemas', () => {
    const rating = defineCardKind({
      presentation: z.strictObject({ maxStars: z.int() }),
      value: z.strictObject({ stars: z.int() }),
      validate(presentation, value) {
        expectTypeOf(presentation).toEqualTypeOf<{ maxStars: number }>();
        expectTypeOf(value).toEqualTypeOf<{ stars: number }>();
        return undefined;
      },
    });
    const codec = createCardCodec({ kinds: { rating } });
    const result = codec.validateResponse({} as RatingCard, null);
    if (result.ok && result.value.action === 'submit') {
      expectTypeOf(result.value.value).toEqualTypeOf<{ stars: number }>();
    }
  });

  it('a base kind cannot be redefined', () => {
    createCardCodec({
      kinds: {
        // @ts-expect-error base kinds are not the product's to redefine
        slider: { presentation: z.strictObject({}), value: z.strictObject({ value: z.number() }) },
      },
    });
  });

  it('a definition needs zod schemas', () => {
    createCardCodec({
      kinds: {
        // @ts-expect-error presentation must be a zod/mini object schema
        rating: { presentation: { maxStars: 5 }, value: z.strictObject({ stars: z.int() }) },
      },
    });
  });
});

describe('§3.7 a product kind without presentation fields', () => {
  it('is just its kind', () => {
    const codec = createCardCodec({
      kinds: { 'color-picker': { presentation: z.strictObject({}), value: z.strictObject({ hex: z.string() }) } },
    });
    const parsed = codec.parseCard(null);
    if (parsed.ok && parsed.value.presentation?.kind === 'color-picker') {
      expectTypeOf(parsed.value.presentation).toEqualTypeOf<{ kind: 'color-picker' }>();
    }
  });
});

describe('issue 13: the card fields Papercusp ships, typed', () => {
  it('a prompt-only card (no presentation) is answered with the prompt-only values', () => {
    const card = {} as OpenCardSnapshotV1 & { presentation?: undefined };
    const result = validateCardResponse(card, null);
    if (result.ok && result.value.action === 'submit') {
      expectTypeOf(result.value.value).toEqualTypeOf<PromptOnlyCardValue>();
      expectTypeOf<PromptOnlyCardValueByKind>().toEqualTypeOf<{
        plain: { text: string };
        approval: { confirmed: boolean };
        report: { acknowledged: true };
      }>();
    }
  });

  it('a product codec answers its prompt-only cards the same way', () => {
    const card = {} as OpenCardSnapshotOf<RatingPresentation> & { presentation?: undefined };
    const result = ratingCodec.validateResponse(card, null);
    if (result.ok && result.value.action === 'submit') {
      expectTypeOf(result.value.value).toEqualTypeOf<PromptOnlyCardValue>();
    }
  });

  it('a decline may carry a reason; approval, option hint/style and dataSchemaJson are typed', () => {
    expectTypeOf<Extract<CardResponse, { action: 'decline' }>>().toEqualTypeOf<{
      action: 'decline';
      correlationId: string;
      reason?: string | undefined;
    }>();
    expectTypeOf<OpenCardSnapshotV1['approval']>().toEqualTypeOf<CardApproval | undefined>();
    expectTypeOf<CardApproval>().toEqualTypeOf<{ title: string; question: string; body: string[] }>();
    expectTypeOf<CardOption['style']>().toEqualTypeOf<CardOptionStyle | undefined>();
    expectTypeOf<CardOptionStyle>().toEqualTypeOf<'default' | 'primary' | 'danger'>();
    expectTypeOf<OpenCardSnapshotV1['dataSchemaJson']>().toEqualTypeOf<Record<string, unknown> | undefined>();
  });
});
