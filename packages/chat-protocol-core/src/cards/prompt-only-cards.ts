/**
 * Prompt-only cards (DESIGN §3.7): a card without `presentation`, answered by
 * what it carries (an approval, a report, or a plain prompt). It names the
 * kinds and their values and tells which kind a card is; the rules that judge
 * an answer are in `card-kind-rules.ts`.
 */
import type * as z from 'zod/v4/mini';
import type { AcknowledgedValueSchema, CardValueByKind } from './card-responses.js';

/**
 * How a card without `presentation` is answered (DESIGN §3.7, prompt-only
 * cards), by what it carries: `approval` → `{ confirmed }` (the approval's
 * yes/no, as a confirm card); else `report` → `{ acknowledged: true }` (a card
 * that only shows a report is read and acknowledged); else `plain`, a plain
 * prompt → `{ text }` (answered in words, as Papercusp's renderers answer it).
 */
export const PROMPT_ONLY_CARD_KINDS = /* @__PURE__ */ Object.freeze(['plain', 'approval', 'report'] as const);

/** One of {@link PROMPT_ONLY_CARD_KINDS}. */
export type PromptOnlyCardKind = (typeof PROMPT_ONLY_CARD_KINDS)[number];

/** The submit value of each prompt-only card kind. */
export type PromptOnlyCardValueByKind = {
  plain: CardValueByKind['text'];
  approval: CardValueByKind['confirm'];
  report: z.infer<typeof AcknowledgedValueSchema>;
};

/** Any prompt-only card's submit value. */
export type PromptOnlyCardValue = PromptOnlyCardValueByKind[PromptOnlyCardKind];

/**
 * Which prompt-only kind a card is, or `undefined` when it has a presentation
 * (or cannot be read). Reads only `presentation`, `approval` and `report`;
 * never throws.
 */
export function promptOnlyCardKind(card: {
  readonly presentation?: unknown;
  readonly approval?: unknown;
  readonly report?: unknown;
}): PromptOnlyCardKind | undefined {
  try {
    const { presentation, approval, report } = card;
    if (presentation !== undefined) return undefined;
    if (approval !== undefined) return 'approval';
    return report === undefined ? 'plain' : 'report';
  } catch {
    return undefined;
  }
}
