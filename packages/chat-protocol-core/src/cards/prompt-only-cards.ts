/**
 * Prompt-only cards (DESIGN §3.7): a card without `presentation`, answered by
 * what it carries (an approval, a report, or a plain prompt). It names the
 * kinds and tells which kind a card is; their values are in
 * `card-responses.ts` with the other kinds', and the rules that judge an
 * answer are in `card-kind-rules.ts`.
 */

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
