import type { CallContext, ContractTool } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { isPositiveInteger } from '../../util/limits.js';
import {
  MemorySchedulingStore,
  Scheduler,
  enter,
  schedulingClaimsOf,
  type AdmitOptions,
  type CallClaims,
  type HeldTurn,
  type SchedulingScope,
  type SchedulingStore,
  type Ticket,
  type TurnRequest,
} from '../../runtime/scheduler/index.js';
import type { HandlerExtra } from './extra.js';
import { callTraceOf, metricsOf, otelNames, type Metrics } from '../../runtime/internal.js';
import { invalidOption } from '../../util/options.js';

/**
 * How a server schedules the `tools/call` requests it receives by their tools' claims
 * (`@Sequential`, `@Barrier`, `@Resource`), so the claims hold whichever client calls.
 */
export interface SchedulingOptions {
  /**
   * Whose calls are ordered together. `'session'` (the default): the calls of one MCP session (a
   * stdio or in-memory connection, or a stateful HTTP session); a stateless HTTP request has no
   * session, so its calls fall to its principal, else to the whole server. `'principal'`: the
   * calls of one authenticated principal (the client id of the request's auth info), else of the
   * whole server. `'server'`: every call the server receives.
   */
  readonly scope?: SchedulingScope;
  /** At most this many calls of one scope run at once (a positive integer; default 16). */
  readonly maxConcurrent?: number;
  /**
   * Where the principal and server scopes keep their turns (see `SchedulingStore`). Default: this
   * process's memory, so the claims hold per process. A shared store (`RedisSchedulingStore` from
   * `toolwright/redis`) makes them hold across every process using it: a call whose tool claims a
   * resource or runs alone takes its turn there (as does every call of the scope when a served
   * tool runs alone, since a barrier must see them all), `maxConcurrent` then bounds the scope's
   * calls across the processes, and other calls are ordered in this process only. Session scopes
   * stay in this process (a session is served by one process).
   */
  readonly store?: SchedulingStore;
}

/** The `scheduling` server option: settings, or `false` to switch enforcement off. */
export type SchedulingOption = SchedulingOptions | false;

/** How many calls of one scope run at once when the option does not say. */
export const DEFAULT_MAX_CONCURRENT_CALLS = 16;

const SCOPES: ReadonlySet<string> = new Set(['session', 'principal', 'server']);

/**
 * Throws a `TypeError` that starts with `where` and names the member when `option` is not
 * `undefined`, `false` or an object whose `scope` is `'session'`, `'principal'` or `'server'`
 * and whose `maxConcurrent` is a positive integer (each may be left out).
 */
export function checkSchedulingOption(option: unknown, where: string): void {
  if (option === undefined || option === false) return;
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw invalidOption(where, 'scheduling', 'false or an object with "scope" and "maxConcurrent"', option);
  }
  const { scope, maxConcurrent } = option as { scope?: unknown; maxConcurrent?: unknown };
  if (scope !== undefined && (typeof scope !== 'string' || !SCOPES.has(scope))) {
    throw new TypeError(
      `${where}: "scheduling.scope" must be "session", "principal" or "server", got ${typeof scope === 'string' ? JSON.stringify(scope) : kindOf(scope)}`,
    );
  }
  if (maxConcurrent !== undefined && !isPositiveInteger(maxConcurrent)) {
    throw invalidOption(where, 'scheduling.maxConcurrent', 'a positive integer', maxConcurrent);
  }
  const { store } = option as { store?: unknown };
  if (store !== undefined && typeof (store as { enter?: unknown } | null)?.enter !== 'function')
    throw invalidOption(
      where,
      'scheduling.store',
      'a scheduling store with an "enter" method (a MemorySchedulingStore, a RedisSchedulingStore)',
      store,
    );
}

/** How one server schedules its calls (made by `schedulingOf`, kept in the server's state). */
export interface CallScheduling {
  readonly scope: SchedulingScope;
  /** The principal and server scopes in this process, shared by every server built from one prepared tool set. */
  readonly local: MemorySchedulingStore;
  /** The shared store of the principal and server scopes (`SchedulingOptions.store`), when one was given. */
  readonly store: SchedulingStore | undefined;
  /** True when a served tool runs alone: then every call of a scope takes its turn in `store`. */
  readonly anyExclusive: boolean;
  readonly maxConcurrent: number;
  /** This connection's session scope, made on its first call and kept as long as the connection. */
  session: Scheduler | undefined;
}

/**
 * The principal and server scopes of every server that serves one tool list (the array given to
 * `createServer`, `addTools`, `serveStdio` or `serveHttp`).
 */
const schedulersByToolList = new WeakMap<object, { local: MemorySchedulingStore; anyExclusive: boolean }>();
const claimsByTool = new WeakMap<ContractTool, CallClaims>();
/** The served tools of a set as scheduling reads them (`ServedTools`, which imports this file). */
type ServedToolMap = ReadonlyMap<string, { readonly prepared: { readonly tool: ContractTool } }>;
const exclusiveBySet = new WeakMap<ServedToolMap, boolean>();

/**
 * Whether one of `tools` runs alone (`@Barrier`, or `@Sequential` in its scope), read once per
 * served tool map: a live set makes a new map only when it changes, so a server built per request
 * never walks the tools again.
 */
function servesExclusive(tools: ServedToolMap): boolean {
  let exclusive = exclusiveBySet.get(tools);
  if (exclusive === undefined) {
    exclusive = false;
    for (const served of tools.values()) exclusive ||= claimsOfTool(served.prepared.tool).exclusive;
    exclusiveBySet.set(tools, exclusive);
  }
  return exclusive;
}

/**
 * How a new server schedules its calls (see `SchedulingOptions`), for the tool list `list` it
 * serves; `undefined` for `false` (its calls never wait). Servers that serve the same tool list
 * (the same array, as a stateless HTTP endpoint that builds one server per request, or a factory
 * that calls `createServer(info, tools)` per connection) share their principal and server scopes,
 * and the first server's `maxConcurrent` for them; each server is a session scope of its own.
 * `option` was checked when the tools were prepared (`servedToolsOf`).
 */
export function schedulingOf(
  list: object,
  option: SchedulingOption | undefined,
  tools?: ServedToolMap,
): CallScheduling | undefined {
  if (option === false) return undefined;
  const maxConcurrent = option?.maxConcurrent ?? DEFAULT_MAX_CONCURRENT_CALLS;
  let kept = schedulersByToolList.get(list);
  if (kept === undefined) {
    kept = { local: new MemorySchedulingStore(maxConcurrent), anyExclusive: false };
    schedulersByToolList.set(list, kept);
  }
  // A set that changes at runtime may gain a tool that runs alone: once one was served, every
  // later server of the list orders all its calls in the store (never the other way back).
  if (!kept.anyExclusive && tools !== undefined) kept.anyExclusive = servesExclusive(tools);
  return {
    scope: option?.scope ?? 'session',
    local: kept.local,
    store: option?.store,
    anyExclusive: kept.anyExclusive,
    maxConcurrent,
    session: undefined,
  };
}

/**
 * Where a call takes its turn and under which scope key: its connection's session scheduler when
 * the scope is `'session'` and the connection is one (anything but an HTTP request without a
 * session id), else its principal's scope when the scope is not `'server'` and the request
 * carries auth info with a client id, else the server's; a principal or server scope goes
 * through the shared store when there is one and the call has something to order across
 * processes (see `SchedulingOptions.store`). A session's scheduler is returned itself (no object
 * per call on the common path).
 */
function placeOf(
  enforcement: CallScheduling,
  transport: string,
  extra: HandlerExtra,
  claims: CallClaims,
): Scheduler | { readonly store: SchedulingStore; readonly scope: string } {
  if (enforcement.scope === 'session' && (extra.sessionId !== undefined || transport !== 'http'))
    return (enforcement.session ??= new Scheduler({ maxConcurrent: enforcement.maxConcurrent }));
  const principal = extra.authInfo?.clientId;
  const scope =
    enforcement.scope !== 'server' && typeof principal === 'string' && principal !== ''
      ? `principal:${principal}`
      : 'server';
  const shared = enforcement.store;
  const acrossProcesses =
    shared !== undefined && (claims.exclusive || claims.resource !== '' || enforcement.anyExclusive);
  return { store: acrossProcesses ? shared : enforcement.local, scope };
}

function claimsOfTool(tool: ContractTool): CallClaims {
  let claims = claimsByTool.get(tool);
  if (claims === undefined) {
    claims = schedulingClaimsOf(tool);
    claimsByTool.set(tool, claims);
  }
  return claims;
}

/**
 * Runs one served call in its turn: waits until the scope's scheduler lets the call start by its
 * tool's claims, then calls `start` with the `TurnRelease` that gives the turn back, which the
 * caller hands the call core as its `settled` observer, so it is released once the call really
 * settled (not when it is answered: a tool that outlives its time limit keeps its resource until
 * it really stops; releasing again does nothing). Resolves once
 * `start` ran; a synchronous throw from `start` gives the turn back and rejects with it. Only
 * the turn's release is kept while the call runs, nothing of the wait (a 2026-07-28 call parked
 * for its client's answers keeps its turn).
 *
 * While the call waits, `withdrawal.signal` withdraws it (the client's `notifications/cancelled`,
 * a closed connection, or the call's time limit, which counts from when the request was
 * received): it rejects with the signal's reason and `start` never runs. The signal is read only
 * when the call has to wait (it may be made on first read); `undefined` stands for the request's
 * own (`extra.signal`). A call that must wait says so once:
 * `ctx.log('debug', 'tools/call "<tool>" <what it waits for>', 'toolwright/scheduling')`, and, when
 * the request has a progress token, one `notifications/progress` with `progress: 0` and that
 * text as its message (the tool's own progress follows once it starts). With enforcement off
 * (the `scheduling: false` option) `start` runs at once, given a release that does nothing.
 */
export function runInTurn(
  scheduling: CallScheduling | undefined,
  transport: string,
  tool: ContractTool,
  extra: HandlerExtra,
  withdrawal: { readonly signal: AbortSignal | undefined },
  ctx: CallContext,
  start: (release: TurnRelease) => void,
  onTurn?: (turn: HeldTurn) => void,
): Promise<void> {
  if (scheduling === undefined) return holding(undefined, start, undefined);
  const claims = claimsOfTool(tool);
  const place = placeOf(scheduling, transport, extra, claims);
  let ask: TurnAsk;
  let entered: HeldTurn | Promise<HeldTurn>;
  if (place instanceof Scheduler) {
    ask = new TurnAsk(tool, claims, withdrawal, extra, ctx);
    entered = enter(place, ask);
  } else {
    ask = new TurnAsk(tool, claims, withdrawal, extra, ctx, place.scope, scheduling.maxConcurrent);
    entered = place.store.enter(ask);
  }
  if (!(entered instanceof Promise)) return holding(entered, start, onTurn);
  // A call that waited stops counting as waiting once it has its turn or was withdrawn.
  const waited = (): void => ask.waited();
  entered.then(waited, waited);
  return entered.then((turn) => holding(turn, start, onTurn));
}

/** A tool's scheduling texts and metric attributes, made on its first call that waits. */
interface ToolWaitTexts {
  /** `tools/call "<tool>"`, the start of every text that says what a call of the tool waits for. */
  readonly what: string;
  readonly attributes: Readonly<Record<string, string>>;
}

const waitTextsByTool = new WeakMap<ContractTool, ToolWaitTexts>();

function waitTextsOf(tool: ContractTool): ToolWaitTexts {
  let texts = waitTextsByTool.get(tool);
  if (texts === undefined) {
    texts = {
      what: `tools/call ${JSON.stringify(tool.name)}`,
      attributes: { [otelNames.ATTR_GEN_AI_TOOL_NAME]: tool.name },
    };
    waitTextsByTool.set(tool, texts);
  }
  return texts;
}

/**
 * What one call asks its scheduler for (see `enter`) or its scheduling store (see
 * `SchedulingStore.enter`; `scope` and `maxConcurrent` are read by a store only): the tool's
 * claims and name, the withdrawal's signal (else the request's own, read only when the call has
 * to wait: the request's signal may be made on first read), and, when it has to wait, the one
 * report of what it waits for (see `runInTurn`) and the `callsWaiting` metric counted up once,
 * then down once it stops waiting (`waited`). A class, not closures: a call that starts at once,
 * the common case, makes this one object and nothing else of the wait, and every call's request
 * shares one hidden class and one getter.
 */
class TurnAsk implements AdmitOptions, TurnRequest {
  readonly label: string;
  private waiting: Metrics | undefined;
  private counted = false;

  constructor(
    private readonly tool: ContractTool,
    readonly claims: CallClaims,
    private readonly withdrawal: { readonly signal: AbortSignal | undefined },
    private readonly extra: HandlerExtra,
    private readonly ctx: CallContext,
    readonly scope = '',
    readonly maxConcurrent = 0,
  ) {
    this.label = tool.name;
  }

  get signal(): AbortSignal {
    return this.withdrawal.signal ?? this.extra.signal;
  }

  /**
   * Counts the call as waiting (once) and says what it waits for: a scheduler gives its ticket,
   * a store the words.
   */
  onWait(waitingFor: Ticket | string): void {
    const texts = waitTextsOf(this.tool);
    if (!this.counted) {
      this.counted = true;
      this.waiting = metricsOf();
      this.waiting?.callsWaiting.add(1, texts.attributes);
    }
    const text = typeof waitingFor === 'string' ? waitingFor : waitingFor.waitingFor();
    reportWait(this.extra, this.ctx, `${texts.what} ${text}`);
  }

  /** Stops counting the call as waiting (when it was counted). */
  waited(): void {
    this.waiting?.callsWaiting.add(-1, waitTextsOf(this.tool).attributes);
  }
}

/**
 * Gives a call's turn back once the call settled: the call core's `settled` observer (see
 * `CallObserver`), so that one object per call, which keeps only its turn, does it.
 */
export class TurnRelease {
  constructor(private readonly turn: HeldTurn) {}

  /** Gives the turn back (a second time does nothing). */
  settled(): void {
    this.turn.release();
  }
}

/** The release of every call without enforcement: it does nothing. */
const NO_TURN_TO_RELEASE = new TurnRelease(Object.freeze({ release(): void {} }));

/** What `holding` returns when `start` ran: one settled promise for every call. */
const STARTED: Promise<void> = Promise.resolve();

/** Calls `start` with `turn`'s release (a synchronous throw releases the turn and rejects). */
function holding(
  turn: HeldTurn | undefined,
  start: (release: TurnRelease) => void,
  onTurn?: (turn: HeldTurn) => void,
): Promise<void> {
  if (onTurn !== undefined && turn?.lost !== undefined) onTurn(turn);
  const release = turn === undefined ? NO_TURN_TO_RELEASE : new TurnRelease(turn);
  try {
    start(release);
    return STARTED;
  } catch (thrown) {
    release.settled();
    return Promise.reject(thrown);
  }
}

/** Says, best effort, what a call waits for: a debug log line, and progress 0 when the client asked for progress. */
function reportWait(extra: HandlerExtra, ctx: CallContext, text: string): void {
  const trace = callTraceOf(ctx.call);
  if (trace !== undefined) trace.waited = { for: text, since: trace.receivedAt ?? Date.now() };
  ctx.log('debug', text, 'toolwright/scheduling');
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return;
  extra
    .sendNotification({
      method: 'notifications/progress',
      params: { progressToken, progress: 0, message: text },
    } as never)
    .catch(() => {});
}
