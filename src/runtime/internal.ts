/*
 * The runtime's face to the MCP edge: helpers the edge uses that are not public API (the
 * package's `exports` map has no path to this file).
 */
export { handBuiltArgumentsProblem } from './call/run.js';
export { runUnderPolicy } from './permissions/apply.js';
export { checkDeclared } from './permissions/requirements.js';
export { contextWith } from './permissions/context.js';
export { fingerprint } from './executor/fingerprint.js';
export { ownedReplayKey, recordOnSettle } from './executor/replay-store.js';
export { CallTimeoutError } from './call/errors.js';
export { IdempotencyConflictError } from './executor/errors.js';
// An abort controller whose signal is made on first read (the MCP edge's direct tool calls use it).
export { LazyAbort } from './executor/lazy-abort.js';
// The hosts outside the runtime check their call-core options against these keys.
export { CALL_CORE_OPTION_KEYS } from './call/options.js';
// The call core's observer of a call's steps (what `onRecord` is built on; tracing will hang on it).
export type { CallStep, CallStepObserver, CallWatch, RecordOrigin } from './call/call-steps.js';
export { bindTurn } from './scheduler/store.js';
// What a host tells the call core's tracing of a call (its request's span, its wait), and how it reaches OpenTelemetry.
export { fileCallTrace, callTraceOf, type CallTrace } from './telemetry/call-trace.js';
export { tracingApi, metricsApi, otelApiLoaded, type Otel } from './telemetry/otel-api.js';
export { errorTypeOf } from './telemetry/tracing-watch.js';
export * as otelNames from './telemetry/names.js';
export { metricsOf, type Metrics } from './telemetry/metrics.js';
export { checkTelemetryOption } from './telemetry/options.js';
