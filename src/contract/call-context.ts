import type { Call, CallContext, ElicitAnswer, Elicitation, LogLevel, PermissionRequest, ProgressUpdate, Root, SamplingRequest, SamplingResult, Session } from './context.js';
import type { Json } from './json.js';
import type { ToolOutput } from './result.js';

/** The parts of a `CallContext` a host supplies; everything left out gets its documented default. */
export interface CallContextInit {
  readonly call: Call;
  readonly signal?: AbortSignal;
  readonly session?: Session;
  readonly progress?: (update: ProgressUpdate | string) => void;
  readonly log?: (level: LogLevel, data: Json, logger?: string) => void;
  readonly elicit?: (question: Elicitation) => Promise<ElicitAnswer>;
  readonly sample?: (request: SamplingRequest) => Promise<SamplingResult>;
  readonly roots?: (options?: { readonly key?: string }) => Promise<readonly Root[]>;
  readonly requirePermission?: (request: PermissionRequest) => Promise<readonly string[]>;
  readonly update?: (output: ToolOutput) => void;
  readonly writeRecord?: (ns: string, data: unknown) => void;
}

/** Raised by `ctx.sample` when the host has no client model to ask. */
export class SamplingUnavailableError extends Error {
  override readonly name = 'SamplingUnavailableError';
  constructor() {
    super('sampling is not available: this call has no client that offers sampling');
  }
}

/** Raised by `ctx.roots` when the host has no client that shares roots. */
export class RootsUnavailableError extends Error {
  override readonly name = 'RootsUnavailableError';
  constructor() {
    super('roots are not available: this call has no client that offers roots');
  }
}

/** Raised by `ctx.requirePermission` when the host applies no permission policy. */
export class NoPermissionPolicyError extends Error {
  override readonly name = 'NoPermissionPolicyError';
  constructor(request: PermissionRequest) {
    super(`permission denied: no permission policy is configured to grant ${request.capabilities.join(', ')} on ${JSON.stringify(request.subject)}`);
  }
}

const NEVER_ABORTED = new AbortController().signal;

// The defaults are made once, not per call: a context is built for every call a host runs.
const ignore = (): void => {};
const nobodyToAsk = async (): Promise<ElicitAnswer> => ({ action: 'cancel' });
const noSampling = async (): Promise<SamplingResult> => {
  throw new SamplingUnavailableError();
};
const noRoots = async (): Promise<readonly Root[]> => {
  throw new RootsUnavailableError();
};
const noPolicy = async (request: PermissionRequest): Promise<readonly string[]> => {
  throw new NoPermissionPolicyError(request);
};

/**
 * Builds a `CallContext` from what a host offers. Defaults: a signal that never fires, no
 * session, progress, logs and updates dropped, elicitation answered `cancel` (nobody to ask),
 * sampling rejected with `SamplingUnavailableError`, roots rejected with
 * `RootsUnavailableError`, permission requests rejected with
 * `NoPermissionPolicyError` (nothing decided means deny), records written with `writeRecord`
 * dropped. The result is frozen.
 */
export function createCallContext(init: CallContextInit): CallContext {
  return Object.freeze({
    call: init.call,
    signal: init.signal ?? NEVER_ABORTED,
    session: init.session,
    progress: init.progress ?? ignore,
    log: init.log ?? ignore,
    elicit: init.elicit ?? nobodyToAsk,
    sample: init.sample ?? noSampling,
    roots: init.roots ?? noRoots,
    requirePermission: init.requirePermission ?? noPolicy,
    update: init.update ?? ignore,
    writeRecord: init.writeRecord ?? ignore,
  });
}
