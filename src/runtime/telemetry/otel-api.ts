import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';

/*
 * How toolwright reaches OpenTelemetry: `@opentelemetry/api` is an optional peer dependency, and
 * toolwright never imports it at load time. Each traced or measured step first reads the API's
 * own global registry (`globalThis[Symbol.for('opentelemetry.js.api.1')]`, where every copy of
 * `@opentelemetry/api` 1.x registers its providers, so the check needs no copy of the API); only
 * when a tracer provider (or a meter provider) is registered there is the API loaded, once, with
 * `require`, and used from then on. So without the API installed, or with it installed and no
 * provider registered, nothing is loaded and a call pays one property read.
 */

/** The `@opentelemetry/api` module, as toolwright uses it. */
export type Otel = typeof OtelApi;

/** The key under which `@opentelemetry/api` 1.x keeps its registered providers on `globalThis`. */
const GLOBAL_API_KEY = Symbol.for('opentelemetry.js.api.1');

/** What the API's global registry holds (only the keys toolwright reads). */
interface GlobalRegistry {
  readonly trace?: unknown;
  readonly metrics?: unknown;
}

let loaded: Otel | null | undefined;

function registry(): GlobalRegistry | undefined {
  return (globalThis as Record<symbol, GlobalRegistry | undefined>)[GLOBAL_API_KEY];
}

function load(): Otel | undefined {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)('@opentelemetry/api') as Otel;
    } catch {
      // Not installed: a provider registered by another copy cannot be reached from here.
      loaded = null;
    }
  }
  return loaded ?? undefined;
}

/** The API when a tracer provider is registered, else `undefined` (and nothing is loaded). */
export function tracingApi(): Otel | undefined {
  return registry()?.trace === undefined ? undefined : load();
}

/** The API when a meter provider is registered, else `undefined` (and nothing is loaded). */
export function metricsApi(): Otel | undefined {
  return registry()?.metrics === undefined ? undefined : load();
}

/** True once `@opentelemetry/api` was loaded by toolwright (for the tests that check it never is). */
export function otelApiLoaded(): boolean {
  return loaded !== undefined && loaded !== null;
}
