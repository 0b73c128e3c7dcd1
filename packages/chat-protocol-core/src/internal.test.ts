import { describe, expect, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as core from './index.js';
import * as internal from './internal.js';

// `@papercusp/chat-protocol-core/internal` promises nothing beyond the
// @papercusp packages, but what they import from it is listed here all the
// same: a name added or gone is a deliberate change to these lists.

// Reading a request once, the shared refusal, the brand check, the envelope digest.
const REQUEST_HELPERS = ['digestEnvelope', 'hasBrand', 'readFields', 'refuse'];
// The zod builders and the extension-name rule the blocks' schemas are made of.
const SCHEMA_HELPERS = ['customCheck', 'exactOptional', 'isReportExtensionName', 'strictExactObject', 'trimmedTextSchema'];

describe('the internal subpath of @papercusp/chat-protocol-core (issue 25)', () => {
  it('exports exactly the helpers the other @papercusp packages share', () => {
    expectRuntimeExports(Object.keys(internal), [...REQUEST_HELPERS, ...SCHEMA_HELPERS].sort());
  });

  it('shares no name with the package root: a helper is public or internal, never both', () => {
    expect(Object.keys(internal).filter((name) => name in core)).toEqual([]);
  });
});
