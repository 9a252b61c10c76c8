import type { Json, JsonObject } from './json.js';
import type { ToolOutput } from './result.js';

/** One call of a tool, as the host (executor, MCP edge or test) hands it over. */
export interface Call {
  /** The call id the model gave (unique within a batch). */
  readonly id: string;
  /** The name of the tool called. */
  readonly tool: string;
  /** The raw arguments, exactly as the client sent them. */
  readonly args: unknown;
  /**
   * An opaque key minted by the host for `keyed` replay: a re-run of an ambiguous call keeps the
   * first key; every other call gets a fresh one. Absent when the host mints none.
   */
  readonly idempotencyKey?: string;
  /**
   * The id of the MCP task this call runs as, when a server runs it as one (a task-augmented
   * `tools/call`); absent for a plain call. A consumed tool reads it to call its upstream as a
   * task too.
   */
  readonly taskId?: string;
}

/**
 * A progress update. Without `progress`, updates are numbered in the order sent; `total` is
 * omitted when unknown; `message` is shown to the user.
 */
export interface ProgressUpdate {
  readonly progress?: number;
  readonly total?: number;
  readonly message?: string;
}

/** MCP's syslog levels, lowest first. */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** A question for the user: a form (`schema`, a flat object schema) or a URL to visit. */
export interface Elicitation {
  readonly message: string;
  readonly schema?: JsonObject;
  readonly url?: string;
  /**
   * The name this question gets among the input requests of a 2026-07-28 `input_required` answer
   * (default `elicit_<n>`); ignored where questions are pushed. 1 to 64 of `A-Za-z0-9_-`.
   */
  readonly key?: string;
}

/** `accept` carries the answer; `decline` is an explicit no; `cancel` is dismissed or nobody asked. */
export type ElicitAction = 'accept' | 'decline' | 'cancel';

/** The user's answer to an `Elicitation`. `content` is present only with `accept` on a form. */
export interface ElicitAnswer {
  readonly action: ElicitAction;
  readonly content?: JsonObject;
}

/** A request to the client's model (MCP `sampling/createMessage`). */
export interface SamplingRequest {
  readonly messages: ReadonlyArray<{ readonly role: 'user' | 'assistant'; readonly content: Json }>;
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly modelPreferences?: JsonObject;
  readonly includeContext?: 'none' | 'thisServer' | 'allServers';
  readonly metadata?: JsonObject;
  /**
   * The name this request gets among the input requests of a 2026-07-28 `input_required` answer
   * (default `sample_<n>`); ignored where requests are pushed. 1 to 64 of `A-Za-z0-9_-`.
   */
  readonly key?: string;
}

/** A root the client shares (a directory or file the user opened), as MCP's `roots/list` lists it. */
export interface Root {
  readonly uri: string;
  readonly name?: string;
}

/** The client model's answer to a `SamplingRequest`. */
export interface SamplingResult {
  readonly role: 'user' | 'assistant';
  readonly content: Json;
  readonly model: string;
  readonly stopReason?: string;
}

/**
 * The connection a call arrived on. The object itself is the identity: key per-client state on
 * it (a `WeakMap`), never on `id`, which is for logs (`""` on stdio, where the process is the
 * session; a fresh value per request on stateless HTTP).
 */
export interface Session {
  readonly id: string;
  readonly transport: 'stdio' | 'http' | 'memory' | 'other';
}

/**
 * Who is calling, as an authorization server vouched for it: the verified access token of an
 * HTTP request (see the MCP edge's `auth` option). Absent on stdio (a local process trusts its
 * parent), in process, and on HTTP served without `auth`. Key per-user state on `issuer` and
 * `subject` together, never on the token.
 */
export interface Principal {
  /** Who the token speaks for: its `sub` claim, or the client id when it names no user (client credentials). */
  readonly subject: string;
  /**
   * `true` when the token named no user, so `subject` is the client id. Such a principal is
   * another one than a user whose `sub` happens to equal that client id (see `principalKey`).
   * Absent (or `false`) for a token with a `sub`.
   */
  readonly clientOnly?: boolean;
  /** The OAuth client the token was issued to. */
  readonly clientId: string;
  /** The scopes granted, in the token's order. */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch; absent when the token says nothing. */
  readonly expiresAt?: number;
  /** The authorization server that issued the token (`iss`), when known. */
  readonly issuer?: string;
  /** Every claim of the token (a JWT's payload, or an introspection answer), frozen. */
  readonly claims: JsonObject;
}

/**
 * The transport request a call arrived in, when the host has one to offer (an HTTP request).
 * `ctx.request` is `undefined` unless the host that runs the call fills it.
 */
export interface TransportRequest {
  /** The request's headers, by lower-case name. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The host's own request object (a Node `IncomingMessage`, a Fetch `Request`), for what the headers do not say. */
  readonly raw?: unknown;
}

/** One labelled subject of a multi-subject permission request (a rename's source and target). */
export interface PermissionSubject {
  readonly label: string;
  readonly subject: string;
}

/**
 * Says that the subjects of a permission request or requirement are file-system paths: `true`
 * resolves a relative subject against the policy's `pathBase` (default `process.cwd()` at the
 * time of the check), `{ base }` against `base` (an absolute path, such as the workspace root the
 * tool opens files in). A path subject is resolved lexically before any rule sees it (`.`, `..`,
 * repeated and trailing `/` mean what the file system makes of them; symbolic links are not
 * followed), and the resolved path is what rules match, what the user is asked about and what is
 * remembered. A path holding a NUL byte or a lone surrogate cannot be resolved and is never
 * matched: a declared requirement fails the call as invalid arguments, a `ctx.requirePermission`
 * under a policy is denied. `false` (the default) leaves the subjects plain strings.
 */
export type PathSubjects = boolean | { readonly base: string };

/** What a tool asks permission for, imperatively through `ctx.requirePermission`. */
export interface PermissionRequest {
  /** The thing acted on (a path, a host, a command). */
  readonly subject: string;
  /** Further subjects of the same operation; the grant is the intersection over all of them. */
  readonly subjects?: readonly PermissionSubject[];
  /**
   * Whether `subject` and `subjects` are file-system paths, resolved before the policy decides (see
   * `PathSubjects`).
   */
  readonly path?: PathSubjects;
  /** The capabilities wanted, by the application's own names (`read`, `write`, ...). */
  readonly capabilities: readonly string[];
  /** Why, in words shown to the user. */
  readonly reason?: string;
}

/**
 * Everything a tool may use while it runs. The host fills it: the executor in process, the MCP
 * edge when served. Every member is always present; a part the host cannot offer degrades as
 * stated on it (progress and logs are dropped, elicitation answers `cancel`, sampling and
 * permission requests fail with an error that says why).
 */
export interface CallContext {
  /** Fires when the call is cancelled, times out or its client goes away. */
  readonly signal: AbortSignal;
  /** The call being run. */
  readonly call: Call;
  /** The session the call arrived on, or `undefined` outside MCP. */
  readonly session: Session | undefined;
  /** Who is calling, when the host verified it (HTTP with `auth`); `undefined` otherwise. */
  readonly principal: Principal | undefined;
  /** The transport request the call arrived in, when the host offers it; `undefined` otherwise. */
  readonly request: TransportRequest | undefined;
  /** Sends a progress update (best effort; dropped when the caller asked for none). */
  progress(update: ProgressUpdate | string): void;
  /** Sends a log message to the client (best effort; filtered by the client's level). */
  log(level: LogLevel, data: Json, logger?: string): void;
  /** Asks the user; resolves `cancel` when nobody can be asked. Rejects only on failure to ask. */
  elicit(question: Elicitation): Promise<ElicitAnswer>;
  /** Asks the client's model; rejects when the client offers no sampling. */
  sample(request: SamplingRequest): Promise<SamplingResult>;
  /**
   * Asks the client for its roots (MCP `roots/list`); rejects with `RootsUnavailableError` when
   * nobody can be asked. `key` names the request in a 2026-07-28 input round (default
   * `roots_<n>`).
   */
  roots(options?: { readonly key?: string }): Promise<readonly Root[]>;
  /**
   * Asks for capabilities on a subject and resolves the capabilities granted (possibly fewer
   * than asked). Rejects with a permission error on denial; with no policy, nothing is granted.
   */
  requirePermission(request: PermissionRequest): Promise<readonly string[]>;
  /** Sends an intermediate result to the consumer (executor `onUpdate`, MCP progress). */
  update(output: ToolOutput): void;
  /**
   * Writes the call's record while it runs (the last write wins; a record the tool returns, or
   * one carried by the error it throws, wins over every write). `data` is JSON data, or a string
   * of raw JSON text that crosses the wire byte for byte (so large integers survive). Hosts that
   * keep no records ignore it.
   */
  writeRecord(ns: string, data: unknown): void;
  /**
   * Turns the call into an MCP task from here on, for a tool declared
   * `@TaskSupport(support, { startsAsCall: true })`: in the 2026-07-28 era, a call by a request
   * that declares the tasks extension runs as a plain call first (its questions are
   * `input_required` rounds the client answers by retrying the call); here the task is created,
   * the request being answered gets its `CreateTaskResult`, and the call goes on as that task
   * (its later questions are the task's, answered with `tasks/update`; its result is the task's).
   * Resolves once the task exists. Everywhere else it resolves at once and changes nothing: a call
   * that already runs as a task (2025-11-25 `params.task`, a task tool without `startsAsCall`),
   * a plain call (an `optional` tool called without the extension, a tool without the claim, the
   * 2025-11-25 era without `params.task`), a host with no tasks (the executor, `toolwright/testing`),
   * and a second call. Rejects, and the call is stopped, when the task cannot be created (the task
   * store's bounds: the request is answered `-32000` naming the bound); rejects with `continueAsTask:
   * the call still waits for answers to <keys>; await them before it continues as a task` while a
   * question of the call is open.
   */
  continueAsTask(): Promise<void>;
}
