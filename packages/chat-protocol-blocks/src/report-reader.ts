/**
 * The typed extension point of `<report>` blocks (DESIGN §4): a product names
 * the extensions it carries on a report (Papercusp's `goalReport`) with a
 * schema each, and reads reports with them typed. The block rules are
 * report.ts's; what an extension means is the product's schema's.
 */
import { type ReportBlock } from '@papercusp/chat-protocol-core';
import { isReportExtensionName } from '@papercusp/chat-protocol-core/internal';
import * as z from 'zod/v4/mini';
import { asRecord, ownKeys, readJsonCopy, readOption, readOwnValue } from './defensive-read.js';
import { readReportBlock } from './report.js';
import { splitTurnText } from './split.js';

/** A product's extension schemas by extension name (a name `isReportExtensionName` allows, not `title`, `plans` or `extensions`). */
export type ReportExtensionSchemas = Readonly<Record<string, z.core.$ZodType>>;

/** A report block whose `extensions` hold the outputs of `Schemas`, each present only when it read. */
export type ReportBlockWithExtensions<Schemas extends ReportExtensionSchemas> = Omit<ReportBlock, 'extensions'> & {
  readonly extensions?: { readonly [Name in keyof Schemas]?: z.output<Schemas[Name]> };
};

/** Options of {@link createReportBlockReader}. */
export interface ReportBlockReaderOptions<Schemas extends ReportExtensionSchemas> {
  /** The extensions to read, by name; every other extension is dropped. */
  readonly extensions: Schemas;
}

/** A product's report reader, returned by {@link createReportBlockReader}. */
export interface ReportBlockReader<Schemas extends ReportExtensionSchemas> {
  /** `parseReportBlock` with the product's extensions read through their schemas; `null` when neither a plan nor an extension is usable. Never throws. */
  parse(input: unknown): ReportBlockWithExtensions<Schemas> | null;
  /** The block of the first complete `<report>` tag in `text` that this reader reads (outside code), or `null`. Never throws. */
  parseTag(text: string): ReportBlockWithExtensions<Schemas> | null;
}

// Block keys: a flat extension of these names would be the block's own field.
const BLOCK_KEYS = new Set(['title', 'plans', 'extensions']);

/**
 * Creates a report reader for a product's extensions. An extension is read
 * from the input's `extensions` object, or, as Papercusp writes it
 * (`{ "plans": [], "goalReport": {…} }`), from a top-level key of its name;
 * it is copied as bounded JSON (own data properties only), parsed with its
 * schema and kept when the schema accepts it and its output is bounded JSON
 * (so the block still satisfies core's `ReportBlockSchema`). An extension that
 * does not read is dropped, like any unusable entry of a block; a report whose
 * only content was that extension is `null`. Plans, title and every other rule
 * are `parseReportBlock`'s. Names that are not a name `isReportExtensionName` allows, or
 * that are a block key (`title`, `plans`, `extensions`), are never read, and
 * neither is an entry that is not an object. Never throws, also on hostile
 * options or when a schema's own code throws (that extension is dropped).
 */
export function createReportBlockReader<const Schemas extends ReportExtensionSchemas>(
  options: ReportBlockReaderOptions<Schemas>,
): ReportBlockReader<Schemas> {
  // Options come from the caller: read like any input, so a getter or a Proxy trap never runs or throws here.
  const declared: Array<readonly [string, z.core.$ZodType]> = [];
  const schemas = asRecord(readOption(options, 'extensions'));
  for (const name of schemas === undefined ? [] : ownKeys(schemas)) {
    const schema = readOwnValue(schemas as object, name);
    if (typeof schema === 'object' && schema !== null && isReportExtensionName(name) && !BLOCK_KEYS.has(name)) {
      declared.push([name, schema as z.core.$ZodType]);
    }
  }
  const readExtensions = (extensions: object | undefined, source: object): Record<string, unknown> | undefined => {
    let kept: Record<string, unknown> | undefined;
    for (const [name, schema] of declared) {
      const nested = extensions === undefined ? undefined : readOwnValue(extensions, name);
      const value = readJsonCopy(nested === undefined ? readOwnValue(source, name) : nested);
      if (value === undefined) continue;
      let output: unknown;
      try {
        const parsed = z.safeParse(schema, value);
        output = parsed.success ? readJsonCopy(parsed.data) : undefined;
      } catch {
        output = undefined;
      }
      if (output !== undefined) (kept ??= {})[name] = output;
    }
    return kept;
  };
  // The block's extensions are exactly the schemas' outputs, each under its own name.
  const reader: ReportBlockReader<Schemas> = {
    parse: (input) => readReportBlock(input, readExtensions) as ReportBlockWithExtensions<Schemas> | null,
    parseTag(text) {
      // The splitter reads report bodies with this reader: its report segments are this reader's blocks.
      for (const segment of splitTurnText(typeof text === 'string' ? text : '', { reportReader: reader })) {
        if (segment.kind === 'report') return segment.block;
      }
      return null;
    },
  };
  return reader;
}
