import type { CallContext, PathSubjects } from './context.js';
import type { Json, JsonObject } from './json.js';
import type { ToolOutput } from './result.js';
import type { ToolTaskClaim } from './task.js';

/**
 * MCP's tool hints. An absent `annotations` on a tool means *unstated*, which MCP reads as
 * open-world and destructive; it is not the same as every hint `false`.
 */
export interface Annotations {
  readonly title?: string;
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly idempotent?: boolean;
  readonly openWorld?: boolean;
}

/** Where a tool's data comes from and goes: it reads content it cannot trust, or sends data out. */
export interface ToolFlow {
  readonly readsUntrusted?: boolean;
  readonly sends?: boolean;
}

/**
 * Whether an ambiguous call (it may have run, no result came back) may be re-run: `safe` may;
 * `keyed` may only with the same idempotency key; `unknown` never.
 */
export type ToolReplay = 'safe' | 'keyed' | 'unknown';

/** One tool-level call a call amounts to. `tool: ""` is the claiming tool itself. */
export interface FactCall {
  readonly tool: string;
  readonly args?: Json;
  /** Prompt text for a question about this call. */
  readonly text?: string;
}

/**
 * What a call amounts to, stated without acting. `calls: null` means *the call itself*;
 * `calls: []` means *nothing the tool can state* and must never be read as the call itself.
 * `rewrite` holds the arguments to run with, instead of the model's, if a policy allows.
 */
export interface ToolFacts {
  readonly calls: readonly FactCall[] | null;
  readonly rewrite?: JsonObject;
}

/**
 * A declarative permission requirement, checked before `execute` (see the runtime's
 * permissions). `subject` picks the subject out of the validated arguments.
 */
export interface Requirement {
  /** The capabilities needed on the subject (`['write']`). */
  readonly capabilities: readonly string[];
  /** Picks the subject (or subjects) out of the validated arguments (`(args) => args.path`). */
  readonly subject: (args: any) => string | readonly string[];
  /** Names what the subject is, for the user ("destination file"). */
  readonly label?: string;
  /** Says why the tool needs it, for the user. */
  readonly reason?: string;
  /** Whether the subjects are file-system paths, resolved before the policy decides (see `PathSubjects`). */
  readonly path?: PathSubjects;
}

/**
 * A contract tool: a plain value any host can run. Only `name`, `description` and `execute`
 * are required; every other property is optional and its absence means the default the readers
 * below apply. A hand-built object is served exactly like a compiled one.
 */
export interface ContractTool {
  /** 1 to 128 characters of `A-Za-z0-9_-.`; unique within a set. */
  readonly name: string;
  readonly title?: string;
  /** What the tool does, for the model. May be `""` on a hand-built tool; `compile` requires one. */
  readonly description: string;
  /** JSON Schema (2020-12) of the arguments object; `undefined` means the tool takes none. */
  readonly parameters?: JsonObject;
  /** JSON Schema (2020-12) of `structuredContent`, when the tool returns structured results. */
  readonly outputSchema?: JsonObject;
  /**
   * Runs one call. Every host runs it through the call core, which first validates the raw JSON
   * arguments against `parameters` (a tool `compile` made does it with its own pipeline, once),
   * so a hand-built tool gets arguments its schema accepts (`undefined` and `""` read as `{}`). A
   * compiled tool called directly, with no host, validates them itself and rejects with
   * `InvalidArgumentsError`. A rejection is an error result, never a crash of the host.
   */
  execute(args: unknown, ctx: CallContext): Promise<ToolOutput>;
  readonly annotations?: Annotations;
  /** Runs alone: a batch holding a sequential tool runs one call at a time, in order. */
  readonly sequential?: boolean;
  /** Splits a batch: everything before completes, it runs alone, nothing after starts until it ends. */
  readonly barrier?: boolean;
  /** `"<kind>:<id>"`: calls sharing a resource run one after another, in order. */
  readonly resource?: string;
  readonly flow?: ToolFlow;
  /** The replay claim: a fixed answer, or one computed per call. */
  readonly replay?: ToolReplay | ((args: JsonObject, ctx: CallContext) => ToolReplay | Promise<ToolReplay>);
  /** The facts claim; its presence is the claim. It never acts. */
  facts?(args: JsonObject, ctx: CallContext): ToolFacts | Promise<ToolFacts>;
  /**
   * Time limit of each run of `execute`, in milliseconds; the host aborts the call's signal and
   * stops waiting when it passes.
   */
  readonly timeoutMs?: number;
  /** Upper bound on the characters of output the model sees. */
  readonly maxOutputChars?: number;
  /**
   * Declarative permission requirements, checked by every host's call core before interceptors and
   * `execute` (not by `execute` itself).
   */
  readonly requires?: readonly Requirement[];
  /**
   * The OAuth scopes a caller's token must hold to call the tool (all of them), checked by an
   * HTTP edge served with `auth` before `execute` runs. Hosts with no principal (stdio, in
   * process) do not check them. Each is an RFC 6749 scope token: no spaces, quotes or backslashes.
   */
  readonly scopes?: readonly string[];
  /**
   * The task claim: whether calls may (`optional`) or must (`required`) run as MCP tasks, with
   * the TTL and poll interval of its tasks (see `ToolTaskClaim`, `taskTermsOf`). Absent means
   * `forbidden`: the tool never runs as a task.
   */
  readonly task?: ToolTaskClaim;
  /** Releases what the tool holds. The host calls it; the executor never does. */
  close?(): Promise<void>;
}

/** The name rule of MCP: 1 to 128 characters of letters, digits, `_`, `-` and `.`. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
