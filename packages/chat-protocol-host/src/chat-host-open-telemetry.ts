/**
 * The host's OpenTelemetry seam (DESIGN §11.1): what it calls on `@opentelemetry/api`, as shapes the api's own
 * `trace`, `context` and `Tracer` already have, so the host imports nothing of the api, not even a type. The api
 * is an optional peer: a static import would break every app that does not install it, a guarded dynamic import
 * fails the bundlers that resolve it at build time, and an `import type` in the published `.d.ts` is TS2307 for
 * an app that checks libraries (`skipLibCheck: false`) without it. An app that traces passes the api in.
 */

/** An OpenTelemetry `Context` (the api's interface): the host only hands the api's contexts back to the api. */
export interface ChatHostTraceContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): ChatHostTraceContext;
  deleteValue(key: symbol): ChatHostTraceContext;
}

/** The attributes the host sets on its spans: ids, names, statuses and counts, never the person's or the model's text. */
export type ChatHostSpanAttributes = Readonly<Record<string, string | number | boolean>>;

/** What the host calls on a span: the api's `Span` has these methods. */
export interface ChatHostSpan {
  setAttributes(attributes: ChatHostSpanAttributes): unknown;
  /** Only ever `SpanStatusCode.ERROR` (2), with a refusal code as the message. */
  setStatus(status: { readonly code: 2; readonly message: string }): unknown;
  recordException(exception: Error): unknown;
  end(): unknown;
}

/** What the host calls on a tracer: the api's `Tracer` has it. */
export interface ChatHostTracer {
  startSpan(name: string, options: { readonly attributes: ChatHostSpanAttributes }, context: ChatHostTraceContext): ChatHostSpan;
}

/**
 * `ChatHostOptions.openTelemetry`: `@opentelemetry/api`'s `trace` and `context` (the api's namespace itself
 * fits: `import * as openTelemetry from '@opentelemetry/api'`), and optionally the tracer to use. Guarantees:
 * each span is started under an explicit parent (`trace.setSpan` over the context active when the turn began),
 * so the tree holds without an async context manager; with one, the agent's steps and a tool's `execute` run
 * with their span active, so their own spans nest under it. Without an SDK registered every span is the api's
 * no-op. A tracer or span that throws is ignored and never breaks a turn.
 */
export interface ChatHostOpenTelemetry {
  /** The api's `trace`: the default tracer (`getTracer('@papercusp/chat-protocol-host')`) and child contexts. */
  readonly trace: {
    getTracer(name: string): ChatHostTracer;
    setSpan(context: ChatHostTraceContext, span: ChatHostSpan): ChatHostTraceContext;
  };
  /** The api's `context`: a turn's span is a child of the context active when it starts. */
  readonly context: {
    active(): ChatHostTraceContext;
    with<Result>(context: ChatHostTraceContext, run: () => Result): Result;
  };
  /** The tracer the host starts its spans with (default: the api's global provider's, named `@papercusp/chat-protocol-host`). */
  readonly tracer?: ChatHostTracer;
}
