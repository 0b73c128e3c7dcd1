/**
 * The host's OpenTelemetry spans: the one module that calls a tracer. It owns starting a span under an explicit
 * parent (a turn's under the context active when it began, every other under its parent span's context), its
 * attributes, the ERROR status and its end, each call guarded so a tracer or span that throws never reaches a
 * run. What each span means and when it opens is the turn observer's (`turn-observer.ts`).
 */
import type {
  ChatHostOpenTelemetry,
  ChatHostSpan,
  ChatHostSpanAttributes,
  ChatHostTraceContext,
  ChatHostTracer,
} from '../chat-host-open-telemetry.js';

/** The tracing a host was created with: the app's api and the tracer its spans start with. */
export interface HostTracing {
  readonly api: ChatHostOpenTelemetry;
  readonly tracer: ChatHostTracer;
}

/** The default tracer's name: the host is the instrumentation scope of its spans. */
const TRACER_NAME = '@papercusp/chat-protocol-host';

/** The host's tracing from `ChatHostOptions.openTelemetry`: `undefined` without it, or when the api throws. */
export function createHostTracing(openTelemetry: ChatHostOpenTelemetry | undefined): HostTracing | undefined {
  if (openTelemetry === undefined) return undefined;
  try {
    return { api: openTelemetry, tracer: openTelemetry.tracer ?? openTelemetry.trace.getTracer(TRACER_NAME) };
  } catch {
    return undefined;
  }
}

/** One span of the host's, or none. Never throws but what `activate`'s own function throws. */
export interface HostSpan {
  /** Starts a span under this one. */
  child(name: string, attributes: ChatHostSpanAttributes): HostSpan;
  /** Runs `run` with this span active in the api's context (what a context manager propagates to its async work). */
  activate<Result>(run: () => Result): Result;
  /** Adds attributes, until the span ended. */
  set(attributes: ChatHostSpanAttributes): void;
  /** Sets the ERROR status with `code` as its message, and records `error` when it is an `Error`; until the span ended. */
  fail(code: string, error?: unknown): void;
  /** Ends the span; the first call only. */
  end(): void;
}

/** The span of a host without tracing: every call does nothing, `activate` just runs. */
const NO_SPAN: HostSpan = {
  child: () => NO_SPAN,
  activate: (run) => run(),
  set: () => undefined,
  fail: () => undefined,
  end: () => undefined,
};

// A span of `tracing` under `parent`; NO_SPAN when the tracer throws.
function startSpan(tracing: HostTracing, name: string, attributes: ChatHostSpanAttributes, parent: ChatHostTraceContext): HostSpan {
  const { api, tracer } = tracing;
  let span: ChatHostSpan;
  let context: ChatHostTraceContext;
  try {
    span = tracer.startSpan(name, { attributes }, parent);
    context = api.trace.setSpan(parent, span);
  } catch {
    return NO_SPAN;
  }
  let ended = false;
  const guarded = (action: () => unknown): void => {
    if (ended) return;
    try {
      action();
    } catch {
      // The app's tracer is an observer: its failure is never the run's.
    }
  };
  return {
    child: (childName, childAttributes) => startSpan(tracing, childName, childAttributes, context),
    activate: (run) => {
      let entered = false;
      try {
        return api.context.with(context, () => {
          entered = true;
          return run();
        });
      } catch (error) {
        // A throw from `run` is the caller's; one from the context manager before it ran is not.
        if (entered) throw error;
        return run();
      }
    },
    set: (more) => guarded(() => span.setAttributes(more)),
    fail: (code, error) =>
      guarded(() => {
        span.setStatus({ code: 2, message: code });
        if (error instanceof Error) span.recordException(error);
      }),
    end: () => {
      guarded(() => span.end());
      ended = true;
    },
  };
}

/** A turn's root span, `name`, a child of the api's active context (the caller's trace, with a context manager); none without tracing. */
export function startTurnSpan(tracing: HostTracing | undefined, name: string, attributes: ChatHostSpanAttributes): HostSpan {
  if (tracing === undefined) return NO_SPAN;
  let parent: ChatHostTraceContext;
  try {
    parent = tracing.api.context.active();
  } catch {
    return NO_SPAN;
  }
  return startSpan(tracing, name, attributes, parent);
}
