import type { CallContext, ContractTool } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { isPositiveInteger } from '../../util/limits.js';
import {
  Scheduler,
  ScopedSchedulers,
  enter,
  schedulingClaimsOf,
  type CallClaims,
  type SchedulingScope,
  type Ticket,
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
}

/** How one server schedules its calls (made by `schedulingOf`, kept in the server's state). */
export interface CallScheduling {
  readonly scope: SchedulingScope;
  /** The principal and server scopes, shared by every server built from one prepared tool set. */
  readonly shared: ScopedSchedulers;
  readonly maxConcurrent: number;
  /** This connection's session scope, made on its first call and kept as long as the connection. */
  session: Scheduler | undefined;
}

/**
 * The principal and server scopes of every server that serves one tool list (the array given to
 * `createServer`, `addTools`, `serveStdio` or `serveHttp`).
 */
const schedulersByToolList = new WeakMap<object, ScopedSchedulers>();
const claimsByTool = new WeakMap<ContractTool, CallClaims>();

/**
 * How a new server schedules its calls (see `SchedulingOptions`), for the tool list `list` it
 * serves; `undefined` for `false` (its calls never wait). Servers that serve the same tool list
 * (the same array, as a stateless HTTP endpoint that builds one server per request, or a factory
 * that calls `createServer(info, tools)` per connection) share their principal and server scopes,
 * and the first server's `maxConcurrent` for them; each server is a session scope of its own.
 * `option` was checked when the tools were prepared (`servedToolsOf`).
 */
export function schedulingOf(list: object, option: SchedulingOption | undefined): CallScheduling | undefined {
  if (option === false) return undefined;
  const maxConcurrent = option?.maxConcurrent ?? DEFAULT_MAX_CONCURRENT_CALLS;
  let shared = schedulersByToolList.get(list);
  if (shared === undefined) {
    shared = new ScopedSchedulers(maxConcurrent);
    schedulersByToolList.set(list, shared);
  }
  return { scope: option?.scope ?? 'session', shared, maxConcurrent, session: undefined };
}

/**
 * The scheduler of a call's scope: its connection's session when the scope is `'session'` and the
 * connection is one (anything but an HTTP request without a session id), else its principal when
 * the scope is not `'server'` and the request carries auth info with a client id, else the server.
 */
function schedulerOf(enforcement: CallScheduling, transport: string, extra: HandlerExtra): Scheduler {
  if (enforcement.scope === 'session' && (extra.sessionId !== undefined || transport !== 'http')) {
    enforcement.session ??= new Scheduler({ maxConcurrent: enforcement.maxConcurrent });
    return enforcement.session;
  }
  const principal = extra.authInfo?.clientId;
  if (enforcement.scope !== 'server' && typeof principal === 'string' && principal !== '')
    return enforcement.shared.schedulerOf(`principal:${principal}`);
  return enforcement.shared.schedulerOf('server');
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
 * tool's claims, then calls `execute`, and gives the turn back when the promise `execute`
 * returned settles (not when the call is answered: a tool that outlives its time limit keeps its
 * resource until it really stops). Resolves or rejects as `execute` does; a synchronous throw
 * becomes a rejection.
 *
 * While the call waits, `signal` withdraws it (the client's `notifications/cancelled`, a closed
 * connection, or the call's time limit, which counts from when the request was received): it
 * rejects with the signal's reason and `execute` never runs. A call that must wait says so once:
 * `ctx.log('debug', 'tools/call "<tool>" <what it waits for>', 'toolwright/scheduling')`, and, when
 * the request has a progress token, one `notifications/progress` with `progress: 0` and that
 * text as its message (the tool's own progress follows once it starts). With enforcement off
 * (the `scheduling: false` option) `execute` runs at once.
 */
export function runInTurn<T>(
  scheduling: CallScheduling | undefined,
  transport: string,
  tool: ContractTool,
  extra: HandlerExtra,
  signal: AbortSignal,
  ctx: CallContext,
  execute: () => T | Promise<T>,
): Promise<T> {
  if (scheduling === undefined) return invoke(execute);
  let waiting: Metrics | undefined;
  const entered = enter(schedulerOf(scheduling, transport, extra), {
    claims: claimsOfTool(tool),
    label: tool.name,
    signal,
    onWait: (ticket) => {
      waiting = metricsOf();
      waiting?.callsWaiting.add(1, { [otelNames.ATTR_GEN_AI_TOOL_NAME]: tool.name });
      reportWait(extra, ctx, `tools/call ${JSON.stringify(tool.name)} ${ticket.waitingFor()}`);
    },
  });
  if (!(entered instanceof Promise)) return holding(entered, execute);
  // A call that waited stops counting as waiting once it has its turn or was withdrawn.
  const waited = (): void => waiting?.callsWaiting.add(-1, { [otelNames.ATTR_GEN_AI_TOOL_NAME]: tool.name });
  entered.then(waited, waited);
  return entered.then((ticket) => holding(ticket, execute));
}

/** Runs `execute` and releases `ticket` once its promise settles (a synchronous throw counts as a rejection). */
function holding<T>(ticket: Ticket, execute: () => T | Promise<T>): Promise<T> {
  const running = invoke(execute);
  const release = (): void => ticket.release();
  running.then(release, release);
  return running;
}

function invoke<T>(execute: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(execute());
  } catch (thrown) {
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
