import { ToolwrightError } from './errors.js';
import type {
  Call,
  CallContext,
  ElicitAnswer,
  Elicitation,
  LogLevel,
  PermissionRequest,
  Principal,
  ProgressUpdate,
  Root,
  SamplingRequest,
  SamplingResult,
  Session,
  TransportRequest,
} from './context.js';
import type { Json } from './json.js';
import { RawJsonData } from './raw-json.js';
import type { ToolOutput, ToolRecord } from './result.js';

/** The parts of a `CallContext` a host supplies; everything left out gets its documented default. */
export interface CallContextInit {
  readonly call: Call;
  readonly signal?: AbortSignal;
  readonly session?: Session;
  readonly principal?: Principal;
  readonly request?: TransportRequest;
  /** The context's `progress` (default: dropped). */
  readonly progress?: (update: ProgressUpdate | string) => void;
  /** The context's `log` (default: dropped). */
  readonly log?: (level: LogLevel, data: Json, logger?: string) => void;
  /** The context's `elicit` (default: answers `cancel`). */
  readonly elicit?: (question: Elicitation) => Promise<ElicitAnswer>;
  /** The context's `sample` (default: rejects with `SamplingUnavailableError`). */
  readonly sample?: (request: SamplingRequest) => Promise<SamplingResult>;
  /** The context's `roots` (default: rejects with `RootsUnavailableError`). */
  readonly roots?: (options?: { readonly key?: string }) => Promise<readonly Root[]>;
  /** The context's `requirePermission` (default: rejects with `NoPermissionPolicyError`). */
  readonly requirePermission?: (request: PermissionRequest) => Promise<readonly string[]>;
  /** The context's `update` (default: dropped). */
  readonly update?: (output: ToolOutput) => void;
  /** The host's own `writeRecord`, called after the record was kept for the call core. */
  readonly writeRecord?: (ns: string, data: unknown) => void;
  /** The context's `continueAsTask` (default: resolves at once, a host with no tasks). */
  readonly continueAsTask?: () => Promise<void>;
}

/** Raised by `ctx.sample` when the host has no client model to ask. */
export class SamplingUnavailableError extends ToolwrightError {
  override readonly name = 'SamplingUnavailableError';
  constructor() {
    super('sampling-unavailable', 'sampling is not available: this call has no client that offers sampling');
  }
}

/** Raised by `ctx.roots` when the host has no client that shares roots. */
export class RootsUnavailableError extends ToolwrightError {
  override readonly name = 'RootsUnavailableError';
  constructor() {
    super('roots-unavailable', 'roots are not available: this call has no client that offers roots');
  }
}

/** Raised by `ctx.requirePermission` when the host applies no permission policy. */
export class NoPermissionPolicyError extends ToolwrightError {
  override readonly name = 'NoPermissionPolicyError';
  constructor(request: PermissionRequest) {
    super(
      'no-permission-policy',
      `permission denied: no permission policy is configured to grant ${request.capabilities.join(', ')} on ${JSON.stringify(request.subject)}`,
    );
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
const alreadyAsItRuns = async (): Promise<void> => {};
const noPolicy = async (request: PermissionRequest): Promise<readonly string[]> => {
  throw new NoPermissionPolicyError(request);
};

/**
 * Where a context's `writeRecord` keeps the last record written: a property of that function
 * (which copies of a context share) under a key only this module holds. A property, not a
 * `WeakMap` entry: one ephemeron per call costs the collector more than the call's own work.
 */
const WRITTEN = Symbol('toolwright.writtenRecord');

type RecordWriter = ((ns: string, data: unknown) => void) & { [WRITTEN]?: { last: ToolRecord | undefined } };

/**
 * A context's `writeRecord`: keeps the last record written (a string `data` as `RawJsonData`, raw
 * JSON text that crosses byte for byte) for `writtenRecordOf`, then tells the host's own
 * `forward`, when it has one.
 */
function recorderOf(forward: ((ns: string, data: unknown) => void) | undefined): (ns: string, data: unknown) => void {
  const slot: { last: ToolRecord | undefined } = { last: undefined };
  const write: RecordWriter = (ns: string, data: unknown): void => {
    slot.last = Object.freeze({ ns, data: typeof data === 'string' ? new RawJsonData(data) : data });
    forward?.(ns, data);
  };
  write[WRITTEN] = slot;
  return write;
}

/**
 * The last record the tool wrote with `ctx.writeRecord` on a context made by `createCallContext`
 * (or a copy of one), else `undefined`. Internal to the hosts (the call core reads it).
 */
export function writtenRecordOf(ctx: CallContext): ToolRecord | undefined {
  const write = (ctx as { writeRecord?: unknown }).writeRecord;
  return typeof write === 'function' ? (write as RecordWriter)[WRITTEN]?.last : undefined;
}

/**
 * Builds a `CallContext` from what a host offers. Defaults: a signal that never fires, no
 * session, no principal, no transport request, progress, logs and updates dropped, elicitation
 * answered `cancel` (nobody to ask), sampling rejected with `SamplingUnavailableError`, roots
 * rejected with `RootsUnavailableError`, permission requests rejected with
 * `NoPermissionPolicyError` (nothing decided means deny), `continueAsTask` resolving at once
 * (the call stays as it runs). `writeRecord` always keeps the last
 * record written for the call core (see `writtenRecordOf`), then calls the host's, when given.
 * The result is frozen.
 */
export function createCallContext(init: CallContextInit): CallContext {
  const context = membersOf(init) as Record<string, unknown>;
  context.signal = init.signal ?? NEVER_ABORTED;
  return Object.freeze(context) as unknown as CallContext;
}

/**
 * Where a lazy context keeps the function its `signal` is read from: a member under a symbol only
 * this module holds, read by the one getter every lazy context shares (`lazySignal`, defined
 * with one shared descriptor). One getter for all, not one closure per context: V8 gives an
 * object whose accessor is a function of its own a hidden class of its own, which the collector
 * keeps until a full collection, and every site that reads such contexts turns megamorphic.
 */
const SIGNAL_OF = Symbol('toolwright.signalOf');

type LazySignalSource = { readonly [SIGNAL_OF]?: () => AbortSignal };

function lazySignal(this: LazySignalSource): AbortSignal {
  return this[SIGNAL_OF]!();
}

const LAZY_SIGNAL: PropertyDescriptor = Object.freeze({ get: lazySignal, enumerable: true });

/**
 * `createCallContext` with a `signal` read from `signalOf()` each time it is read (so a host can
 * make the signal only when a tool looks at it, as the executor does); `init.signal` is ignored.
 * A copy that carries the getter over must carry its source too (see `carryMember`). Internal to
 * the hosts.
 */
export function createLazySignalContext(init: CallContextInit, signalOf: () => AbortSignal): CallContext {
  const context = membersOf(init) as Record<string, unknown>;
  defineLazySignal(context, signalOf);
  return Object.freeze(context) as unknown as CallContext;
}

/**
 * Gives `target` (a context being built, not yet frozen) a `signal` read from `signalOf()` each
 * time it is read, through the getter every lazy context shares. Internal to the hosts (the time
 * limit's context).
 */
export function defineLazySignal(target: Record<string, unknown>, signalOf: () => AbortSignal): void {
  (target as Record<PropertyKey, unknown>)[SIGNAL_OF] = signalOf;
  Object.defineProperty(target, 'signal', LAZY_SIGNAL);
}

/**
 * Copies the member `key` of a context to `copy` (a context being built from it): a getter stays
 * a getter (a lazy context's `signal` stays lazy, its source carried along), every other member
 * is copied by value. Internal to the hosts (`contextWith`, the time limit's context).
 */
export function carryMember(source: object, copy: Record<string, unknown>, key: string): void {
  const getter = Object.getOwnPropertyDescriptor(source, key)?.get;
  if (getter === undefined) {
    copy[key] = (source as Record<string, unknown>)[key];
    return;
  }
  if (getter === lazySignal && key === 'signal') {
    defineLazySignal(copy, (source as LazySignalSource)[SIGNAL_OF]!);
    return;
  }
  Object.defineProperty(copy, key, { get: getter, enumerable: true });
}

/** Every member of a call context but `signal`, with the defaults `createCallContext` documents. */
function membersOf(init: CallContextInit): Omit<CallContext, 'signal'> {
  return {
    call: init.call,
    session: init.session,
    principal: init.principal,
    request: init.request,
    progress: init.progress ?? ignore,
    log: init.log ?? ignore,
    elicit: init.elicit ?? nobodyToAsk,
    sample: init.sample ?? noSampling,
    roots: init.roots ?? noRoots,
    requirePermission: init.requirePermission ?? noPolicy,
    update: init.update ?? ignore,
    writeRecord: recorderOf(init.writeRecord),
    continueAsTask: init.continueAsTask ?? alreadyAsItRuns,
  };
}
