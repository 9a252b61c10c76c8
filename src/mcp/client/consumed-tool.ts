import type { Tool as McpTool } from '@modelcontextprotocol/server';
import {
  InvalidArgumentsError,
  ToolError,
  createCallContext,
  isJsonObject,
  resultOf as toolResultOf,
  text,
  type CallContext,
  type ToolOutput,
  type ContractTool,
  type ContentPart,
  type JsonObject,
  type ToolRecord,
  type ToolResult,
} from '../../contract/index.js';
import { registerCompiledEntry } from '../../compiler/internal.js';
import type { PermissionPolicy } from '../../runtime/index.js';
import { checkDeclared, runUnderPolicy } from '../../runtime/internal.js';
import { errorText } from '../../util/describe.js';
import { MAX_TIMEOUT_MS } from '../../util/limits.js';
import { deepFreeze } from '../../util/freeze.js';
import { IDEMPOTENCY_KEY_META, RECORD_META_KEY } from '../server/constants.js';
import { withListedDefinition } from '../server/listed-definition.js';
import { withForwardedMeta } from '../server/result-meta.js';
import { projectResult } from './bounded-output.js';
import { callToolOn, isV2Client, type ClientRequestOptions, type McpClientLike } from './client-like.js';
import { callAsUpstreamTask, upstreamTaskClaim, upstreamTaskSupport } from './upstream-task.js';
import { callAsModernUpstreamTask } from './modern-upstream-task.js';
import { TASKS_EXTENSION } from '../server/tasks/constants.js';
import { startUpstreamSpan, type UpstreamSpan } from './upstream-span.js';
import type { RemoteFactsAnswer } from './facts-batcher.js';
import { claimsOf, executionOf } from './execution.js';
import type { ExecutionMode, ListedTool } from './options.js';
import { UNCLASSIFIED_CAPABILITY } from './policy.js';
import { annotationsOfListed, type ListedAnnotations } from './trust.js';
import { Upstream } from './upstream.js';

/** What the consumer decided for one listed tool. */
export interface ConsumedToolPlan {
  readonly listed: ListedTool;
  /** The contract tool's name (the prefix and the listed name). */
  readonly name: string;
  readonly permission: string;
  readonly executionMode: ExecutionMode | undefined;
  readonly timeoutMs: number | undefined;
  readonly maxLLMChars: number | undefined;
  /** True when the server's `_meta` claims apply (the host trusts claims and the server offers facts). */
  readonly claimsApply: boolean;
  /** The policy every call passes, or `null` for none (the host checks `requires` itself). */
  readonly policy: PermissionPolicy | null;
  /**
   * With no policy: whether the tool states its requirement in `requires` (default true) or
   * forwards every call unchecked.
   */
  readonly statesRequirement?: boolean;
}

/** What a consumed tool says about where it comes from (see `consumedToolInfo`). */
export interface ConsumedToolInfo {
  readonly server: string;
  /** The name the server listed the tool under. */
  readonly listedName: string;
  /** Its permission class (`""` is unclassified, required as the `unclassified` capability). */
  readonly permission: string;
  /** The definition as the server listed it. */
  readonly definition: McpTool;
}

const CONSUMED = Symbol.for('toolwright/mcp/consumed');

/** Where a consumed tool comes from, or `undefined` for any other tool. */
export function consumedToolInfo(tool: ContractTool): ConsumedToolInfo | undefined {
  const info = (tool as unknown as Record<symbol, unknown>)[CONSUMED];
  return typeof info === 'object' && info !== null ? (info as ConsumedToolInfo) : undefined;
}

/**
 * Makes the contract tool of one listed tool. Its `parameters` are the listed `inputSchema` as
 * given (any dialect; the server validates the arguments, so no host validates them again and a
 * schema toolwright cannot compile is never refused); its title is the tool's `title`, else its
 * annotations' title; its annotations are read as MCP defines them (`annotationsOfListed`). It
 * requires its permission as a capability (`unclassified` for `""`) on the subject of its listed
 * name, checked by `plan.policy` before every call (with a `null` policy the tool states the
 * requirement and the host checks it). A tool its server runs as a task takes the task claim of
 * its listing (`upstreamTaskClaim`), so a server that serves it again runs its calls as tasks of
 * its own. When served again it is listed with the server's definition unchanged
 * (`withListedDefinition`), but for `execution.taskSupport` added to a task tool listed without
 * `execution` (a 2026-07-28 listing, which never has it).
 */
export function consumedTool(upstream: Upstream, plan: ConsumedToolPlan): ContractTool {
  const listed = plan.listed;
  const listedName = listed.name;
  const annotations = annotationsOfListed(
    isJsonObject(listed.annotations) ? (listed.annotations as ListedAnnotations) : undefined,
  );
  const capability = plan.permission === '' ? UNCLASSIFIED_CAPABILITY : plan.permission;
  const claims = plan.claimsApply ? claimsOf(listed) : undefined;
  const core: ContractTool = {
    name: plan.name,
    description: '',
    requires: [{ capabilities: [capability], subject: () => listedName }],
    execute: (args, ctx) => callUpstream(upstream, plan, listedName, args, ctx),
  };
  const policy = plan.policy;
  const policed =
    policy === null
      ? core
      : { ...core, execute: (args: unknown, ctx: CallContext) => underPolicy(policy, core, args, ctx) };
  const title = typeof listed.title === 'string' && listed.title !== '' ? listed.title : annotations?.title;
  const tool: Record<string | symbol, unknown> = {
    name: plan.name,
    description: typeof listed.description === 'string' ? listed.description : '',
    execute: policed.execute,
  };
  if (plan.policy === null && plan.statesRequirement !== false) tool.requires = core.requires;
  if (title !== undefined) tool.title = title;
  if (isJsonObject(listed.inputSchema)) tool.parameters = listed.inputSchema;
  if (annotations !== undefined) tool.annotations = annotations;
  Object.assign(tool, executionOf(plan.executionMode, plan.permission, claims));
  if (plan.timeoutMs !== undefined) tool.timeoutMs = plan.timeoutMs;
  const task = upstreamTaskClaim(listed);
  if (task !== undefined) tool.task = task;
  if (claims?.facts === true)
    tool.facts = (args: JsonObject, ctx?: CallContext) => askFacts(upstream, listedName, args, ctx);
  if (claims?.replay === true || claims?.facts === true)
    tool.replay = (args: JsonObject, ctx?: CallContext) => askReplay(upstream, listedName, args, ctx);
  const definition = deepFreeze(structuredClone(listed)) as unknown as McpTool;
  Object.defineProperty(tool, CONSUMED, {
    value: Object.freeze({ server: upstream.server, listedName, permission: plan.permission, definition }),
    enumerable: true,
  });
  // A task tool listed without `execution` (a 2026-07-28 listing) is served with the claim it now has.
  const served =
    task === undefined || listed.execution !== undefined
      ? definition
      : (deepFreeze({ ...structuredClone(listed), execution: { taskSupport: task.support } }) as unknown as McpTool);
  withListedDefinition(tool as unknown as ContractTool, served);
  // Its server validates the arguments: the call core must not (a schema in any dialect, or one
  // toolwright cannot compile, is served and called as given), so it runs the tool as it is.
  const consumed = tool as unknown as ContractTool;
  registerCompiledEntry(consumed, {
    parse: async (raw) => (raw ?? {}) as object,
    run: (args, ctx) => consumed.execute(args, ctx),
    validateOutput: undefined,
  });
  return Object.freeze(consumed);
}

/**
 * Runs a consumed tool's call under the consumer's own policy: its requirement is checked (a
 * question asked as the policy says), then the server is called; the call's permission record
 * is put on the result unless the server sent one of its own, and then written with
 * `ctx.writeRecord` instead, so a host's `onRecord` still hears it (a denial carries it as
 * `error.record`).
 */
async function underPolicy(
  policy: PermissionPolicy,
  core: ContractTool,
  args: unknown,
  ctx: CallContext,
): Promise<ToolOutput> {
  const { value, record } = await runUnderPolicy(policy, core.name, ctx, async (runCtx, requireEvery) => {
    await checkDeclared(core.requires ?? [], (args ?? {}) as Record<string, unknown>, requireEvery);
    return core.execute(args, runCtx);
  });
  if (record === undefined) return value;
  const result = toolResultOf(value);
  if (result.record === undefined) return { ...result, record };
  // The server's record wins the result; the decisions still reach the host (its `onRecord`).
  ctx.writeRecord(record.ns, record.data);
  return result;
}

/**
 * The answers asked per call context: a host that asks a call's replay and then its facts (as the
 * facts method of a server does) with the same context gets both from one question.
 */
const askedByContext = new WeakMap<object, Map<string, Promise<RemoteFactsAnswer>>>();

async function ask(
  upstream: Upstream,
  name: string,
  args: JsonObject,
  ctx: CallContext | undefined,
): Promise<RemoteFactsAnswer> {
  const key = `${name}\u0000${JSON.stringify(args ?? {})}`;
  let asked = ctx === undefined ? undefined : askedByContext.get(ctx);
  const known = asked?.get(key);
  if (known !== undefined) return known;
  const answer = upstream.client().then((client) => upstream.batcherOf(client).ask(name, args ?? {}));
  if (ctx !== undefined) {
    if (asked === undefined) askedByContext.set(ctx, (asked = new Map()));
    asked.set(key, answer);
  }
  return answer;
}

async function askFacts(upstream: Upstream, name: string, args: JsonObject, ctx: CallContext | undefined) {
  const answer = await ask(upstream, name, args, ctx);
  if (answer.kind === 'error') throw new Error(answer.error);
  return answer.kind === 'facts' ? answer.facts : { calls: null };
}

async function askReplay(
  upstream: Upstream,
  name: string,
  args: JsonObject,
  ctx: CallContext | undefined,
): Promise<'safe' | 'unknown'> {
  return (await ask(upstream, name, args, ctx)).replay;
}

/** Sends one call upstream and reads its result (see `connectTools` for the contract). */
async function callUpstream(
  upstream: Upstream,
  plan: ConsumedToolPlan,
  listedName: string,
  args: unknown,
  ctx: CallContext,
): Promise<ToolResult> {
  const sent = args === undefined || args === null || args === '' ? {} : args;
  if (!isJsonObject(sent))
    throw new InvalidArgumentsError([{ pointer: '', message: 'the arguments must be a JSON object' }]);
  const where = `mcp server ${JSON.stringify(upstream.server)}: tool ${JSON.stringify(listedName)}`;
  const context = ctx ?? createCallContext({ call: { id: '', tool: plan.name, args: sent } });
  let raw: unknown;
  let traced: UpstreamSpan | undefined;
  const untrack = upstream.track(context, listedName);
  try {
    const client = await upstream.client();
    // The call's idempotency key crosses in _meta, so a toolwright server deduplicates a keyed call.
    const key = context.call.idempotencyKey;
    traced = startUpstreamSpan(
      upstream.server,
      listedName,
      context.call,
      key === undefined ? undefined : { [IDEMPOTENCY_KEY_META]: key },
    );
    const params =
      traced.meta === undefined
        ? { name: listedName, arguments: sent }
        : { name: listedName, arguments: sent, _meta: traced.meta };
    // A tool the server runs only as a task is called as one and polled; so is one that may run
    // as a task when this call runs as a task itself (a proxy serving it as a task tool).
    const support = upstreamTaskSupport(plan.listed);
    const asTask = support === 'required' || (support === 'optional' && context.call.taskId !== undefined);
    const modern = isV2Client(client) && client.getProtocolEra?.() === 'modern';
    const requestOptions: ClientRequestOptions = {
      signal: context.signal,
      timeout: plan.timeoutMs ?? MAX_TIMEOUT_MS,
      onprogress: (progress) => {
        const message = typeof progress.message === 'string' ? progress.message : '';
        const details: { progress: number; total?: number; message: string } = {
          progress: progress.progress,
          message,
        };
        if (typeof progress.total === 'number') details.total = progress.total;
        context.update({ content: message === '' ? [] : [text(message)], details });
      },
    };
    const call = !asTask
      ? callToolOn
      : modern
        ? (on: McpClientLike, sent: Record<string, unknown>, options: ClientRequestOptions) =>
            callAsModernUpstreamTask(on, sent, options, (question) =>
              upstream.taskQuestionFor(context, listedName, question),
            )
        : (on: McpClientLike, sent: Record<string, unknown>, options: ClientRequestOptions) =>
            callAsUpstreamTask(on, sent, options, (taskId) => upstream.trackTask(taskId, context, listedName));
    try {
      raw = await call(client, params, requestOptions);
    } catch (err) {
      // A 2026-07-28 server that runs a tool only as a task, though its listing did not say so.
      if (!modern || asTask || !requiresTasksExtension(err)) throw err;
      raw = await callAsModernUpstreamTask(client, params, requestOptions, (question) =>
        upstream.taskQuestionFor(context, listedName, question),
      );
    }
    traced.answered(raw);
  } catch (err) {
    traced?.failed(err);
    if (context.signal.aborted)
      throw context.signal.reason instanceof Error
        ? context.signal.reason
        : new Error(`${where}: the call was cancelled`);
    upstream.onFailure(err);
    if (isTimeout(err) && plan.timeoutMs !== undefined)
      throw new Error(`${where}: timed out after ${plan.timeoutMs} ms`);
    const own = `mcp server ${JSON.stringify(upstream.server)}: `;
    const message = errorText(err);
    throw new Error(`${where}: ${message.startsWith(own) ? message.slice(own.length) : message}`);
  } finally {
    untrack();
  }
  return resultOf(raw, plan.maxLLMChars);
}

/** True for a 2026-07-28 `-32021` refusal naming the tasks extension as the capability it needs. */
function requiresTasksExtension(err: unknown): boolean {
  const fault = typeof err === 'object' && err !== null ? (err as { code?: unknown; data?: unknown }) : {};
  const required = isJsonObject(fault.data) ? fault.data.requiredCapabilities : undefined;
  const extensions = isJsonObject(required) ? required.extensions : undefined;
  return fault.code === -32021 && isJsonObject(extensions) && extensions[TASKS_EXTENSION] !== undefined;
}

/** True for a request timeout of either SDK line (1.x: -32001; 2.x: `REQUEST_TIMEOUT`). */
function isTimeout(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === -32001 || code === 'REQUEST_TIMEOUT';
}

/**
 * Reads an MCP call result. Kept as parts (no `maxLLMChars`): the content parts as the server
 * sent them and `structuredContent`; projected (`maxLLMChars` given): one text part with the
 * model-facing text of `projectResult`, and `structuredContent` kept. `details` are
 * `{ result, forUser? }`: the whole raw result (its `_meta` included) and, projected, the
 * user-facing text. A record under `RECORD_META_KEY` (`{ns, data}`, data a JSON string) becomes
 * the result's `record`; anything else there is no record. The result's whole `_meta` is
 * attached for serving again (see `withForwardedMeta`), so a toolwright server or proxy sends the
 * upstream's other `_meta` keys as they came. An `isError` result throws a `ToolError` with the
 * server's text (the text parts joined with newlines, or the projected text), the same details,
 * its record and its `_meta`; a missing result throws `mcp tool returned no result`.
 */
function resultOf(raw: unknown, maxLLMChars: number | undefined): ToolResult {
  if (maxLLMChars !== undefined) {
    const projected = projectResult(raw, maxLLMChars);
    const details = { result: raw, forUser: projected.forUser };
    if (projected.isError) throw failureOf(raw, projected.forLLM, details);
    return withExtras(raw as JsonObject, { content: [text(projected.forLLM)], details });
  }
  if (!isJsonObject(raw)) throw new ToolError('mcp tool returned no result', { details: { result: raw } });
  const content = (Array.isArray(raw.content) ? raw.content : []) as unknown as ContentPart[];
  const details = { result: raw };
  if (raw.isError === true) {
    const texts = content
      .filter((part) => part?.type === 'text' && typeof part.text === 'string')
      .map((part) => (part as { text: string }).text);
    throw failureOf(raw, texts.join('\n'), details);
  }
  return withExtras(raw, { content, details });
}

/** The `ToolError` of an upstream `isError` result (or a missing one), with its record and `_meta`. */
function failureOf(raw: unknown, message: string, details: unknown): ToolError {
  const meta = isJsonObject(raw) && isJsonObject(raw._meta) ? raw._meta : undefined;
  const record = recordOf(meta);
  const error = new ToolError(message, { details, ...(record === undefined ? {} : { record }) });
  return meta === undefined ? error : withForwardedMeta(error, meta);
}

function withExtras(raw: JsonObject, result: { content: ContentPart[]; details: unknown }): ToolResult {
  const out: { content: ContentPart[]; details: unknown; structuredContent?: JsonObject; record?: ToolRecord } = result;
  if (isJsonObject(raw.structuredContent)) out.structuredContent = raw.structuredContent;
  const record = recordOf(raw._meta);
  if (record !== undefined) out.record = record;
  return isJsonObject(raw._meta) ? withForwardedMeta(out, raw._meta) : out;
}

function recordOf(meta: unknown): ToolRecord | undefined {
  const wire = isJsonObject(meta) ? meta[RECORD_META_KEY] : undefined;
  if (!isJsonObject(wire) || typeof wire.ns !== 'string' || wire.ns === '' || typeof wire.data !== 'string')
    return undefined;
  try {
    return { ns: wire.ns, data: JSON.parse(wire.data) };
  } catch {
    return undefined;
  }
}
