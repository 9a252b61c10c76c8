import {
  InvalidArgumentsError,
  isJsonObject,
  type CallContext,
  type ToolOutput,
  type ToolRecord,
  type ToolResult,
} from '../../contract/index.js';
import { problemsOf } from '../../compiler/validation/index.js';
import { checkOutputSchema } from '../../compiler/internal.js';
import { writtenRecordOf } from '../../contract/internal.js';
import { argumentsObject } from '../../compiler/validation/index.js';
import { errorText } from '../../util/describe.js';
import { runIntercepted } from '../interceptors/interceptors.js';
import { boundResult } from '../output-limits/truncate.js';
import { runUnderPolicy } from '../permissions/apply.js';
import { checkDeclared, requireEveryThrough, type RequireEvery } from '../permissions/requirements.js';
import { errorFromThrown } from './errors.js';
import { checkedResult } from './output.js';
import { isPreparedTool, type CallEnd, type CallObserver, type CoreTool, type PreparedTool } from './prepared-tool.js';
import { CallSteps } from './call-steps.js';
import { CallTimeLimit } from './time-limit.js';

/** The arguments of a call after validation: plain JSON, and what `execute` gets (a DTO for a compiled tool). */
interface CheckedArguments {
  readonly plain: Record<string, unknown>;
  readonly value: unknown;
}

/**
 * Runs one call of a prepared tool from its raw JSON arguments to its end, the same on every
 * host, in this fixed order:
 *
 * 1. **Arguments**: `undefined` and `""` read as `{}`; anything but an object, or arguments the
 *    tool's schema refuses, end the call with `InvalidArgumentsError`
 *    (`invalid arguments: /n: must be number; /: must NOT have additional property "extra"`).
 *    A compiled tool's own pipeline does this (once; the DTO is built here); a hand-built tool's
 *    arguments are checked against its `parameters`.
 * 2. **Permissions**: the tool's `@Requires` on those arguments, through the policy when the host
 *    has one (a question waits in place for its answer; nothing is run again; see
 *    `runUnderPolicy`), else through the context's own `requirePermission`. Checked once, here only.
 * 3. **Interceptors**: every `before`, in order (they may refuse, or choose the tool's rewrite,
 *    whose arguments are validated and whose requirements are checked as in steps 1 and 2).
 * 4. **Time limit**: the tool's `timeoutMs`, else the host's, around `execute` (a permission
 *    question the tool waits for inside `execute` counts, as it waits in place); when it passes,
 *    `ctx.signal` aborts and the call ends at once with `CallTimeoutError`.
 * 5. **Execute**: the tool's `execute` (a compiled class's, with its DTO); then every
 *    interceptor's `after`, in reverse order. What came back must be a tool output
 *    (`InvalidOutputError`, `tool "x" returned an invalid output: ...`).
 * 6. **Output check**: a tool with an output schema must return matching `structuredContent`
 *    unless its result is `isError` (`InvalidOutputError`, see `checkOutputSchema`).
 * 7. **Output bounds**: the tool's `maxOutputChars`, else the host's (see `boundResult`;
 *    structured content over the bound is `OutputTooLargeError`).
 * 8. **Records**: a result keeps one record, the tool's before the core's: the record the tool
 *    returned; else the last record it wrote with `ctx.writeRecord(ns, data)` on the host's
 *    context (see `writtenRecordOf`; a string `data` is raw JSON text that crosses byte for
 *    byte); else the policy's `toolwright:permissions` record. A failed call keeps its record too
 *    (`CallEnd.record`), in the same order: the one its error carries (a `ToolError`'s `record`),
 *    else the last one written, else the permissions record (a `PermissionDeniedError` carries
 *    it); a call its time limit ended keeps the last record written before then. A tool's record
 *    is never dropped for the permissions record: the host's `onRecord` (see `CallSteps`) is told
 *    every record of the call, each written record as it is written, the returned one and the
 *    permissions record when the call ends.
 *
 * A throw anywhere, of anything, ends the call with that error (`tool "x" threw: "oops"` for a
 * value that is not an `Error`, see `errorFromThrown`). It never rejects; `prepared` must come
 * from `prepareTools` (anything else ends with `runToolCall: expected a tool made by
 * prepareTools`).
 */
export function runToolCall(
  prepared: PreparedTool,
  raw: unknown,
  ctx: CallContext,
  observer?: CallObserver,
): Promise<CallEnd> {
  if (!isPreparedTool(prepared))
    return Promise.resolve({ ok: false, error: new TypeError('runToolCall: expected a tool made by prepareTools') });
  return runPrepared(prepared as CoreTool, raw, ctx, observer);
}

/** `runToolCall` for a tool known to come from `prepareTool`. */
function runPrepared(tool: CoreTool, raw: unknown, ctx: CallContext, observer?: CallObserver): Promise<CallEnd> {
  const limit = tool.timeoutMs === undefined ? undefined : new CallTimeLimit(tool.name, tool.timeoutMs);
  const steps = tool.watches.length === 0 ? undefined : CallSteps.begin(tool.watches, ctx.call, tool.name);
  const real = runSteps(tool, raw, ctx, observer, limit, steps);
  // Without steps to watch, `runSteps` tells `settled` itself, as it ends (no promise for it).
  if (steps !== undefined) {
    void real.then((end) => {
      steps.end(end);
      tellSettled(observer, end);
    });
  }
  if (limit === undefined) return steps === undefined ? real : real.then((end) => answered(steps, end));
  // A call the time limit ends keeps the last record its tool wrote before then.
  const expired = limit.expired.then((end): CallEnd => {
    const record = end.ok ? undefined : writtenRecordOf(ctx);
    return record === undefined || end.ok ? end : { ...end, record };
  });
  const raced = Promise.race([real, expired]);
  return steps === undefined ? raced : raced.then((end) => answered(steps, end));
}

/** Tells `observer.settled`, when there is one, the call's own end (a throw from it is ignored). */
function tellSettled(observer: CallObserver | undefined, end: CallEnd): void {
  if (observer?.settled === undefined) return;
  try {
    observer.settled(end);
  } catch {
    // An observer's failure never changes the call.
  }
}

/**
 * The call's own end, told to `observer.settled` first when no steps are watched (with steps,
 * `runPrepared` tells it after `steps.end`).
 */
function ended(observer: CallObserver | undefined, steps: CallSteps | undefined, end: CallEnd): CallEnd {
  if (steps === undefined) tellSettled(observer, end);
  return end;
}

/** Tells the call's observers the end its host is answered with, and gives it back. */
function answered(steps: CallSteps, end: CallEnd): CallEnd {
  steps.answered(end);
  return end;
}

async function runSteps(
  tool: CoreTool,
  raw: unknown,
  given: CallContext,
  observer: CallObserver | undefined,
  limit: CallTimeLimit | undefined,
  steps: CallSteps | undefined,
): Promise<CallEnd> {
  // The tool writes through a context that reports each record as it is written; the core reads
  // what was written from the host's own context.
  const ctx = steps === undefined ? given : steps.watchedContext(given, () => writtenRecordOf(given));
  let permissionsRecord: ToolRecord | undefined;
  try {
    // A compiled tool without class-validator rules checks its arguments with no promise to wait for.
    const args: CheckedArguments =
      tool.entry === undefined
        ? checkHandBuilt(tool, raw)
        : tool.entry.parseNow !== undefined
          ? { value: tool.entry.parseNow(raw), plain: plainOf(raw) }
          : { value: await tool.entry.parse(raw), plain: plainOf(raw) };
    let result: ToolResult;
    let record: ToolRecord | undefined;
    if (tool.policy === undefined) {
      result =
        tool.requires.length === 0 && tool.interceptors.length === 0
          ? checkedResult(tool.name, await execute(tool, args.value, ctx, observer, limit))
          : await runOnce(tool, args, ctx, requireEveryThrough(ctx), observer, limit);
    } else {
      // Under a time limit the policy sees the limited signal: once a run timed out, the call is
      // over, and a permission its late run still asks for is never put to the user.
      const policyCtx = limit === undefined ? ctx : limit.contextFor(ctx);
      const ran = await runUnderPolicy(
        tool.policy,
        tool.name,
        policyCtx,
        (runCtx, requireEvery) => runOnce(tool, args, runCtx, requireEvery, observer, limit),
        (made) => (permissionsRecord = made),
        steps === undefined
          ? undefined
          : (question, decision, askedAt) =>
              steps.step({ kind: 'question', capabilities: question.capabilities, decision, askedAt }),
      );
      result = ran.value;
    }
    if (tool.validateOutput !== undefined) checkOutputSchema(tool.validateOutput, result);
    if (tool.maxOutputChars !== undefined) result = boundResult(result, tool.maxOutputChars);
    steps?.record(result.record, 'returned');
    steps?.record(permissionsRecord, 'permissions');
    record = result.record ?? writtenRecordOf(given) ?? permissionsRecord;
    if (record !== undefined && result.record === undefined) result = { ...result, record };
    return ended(observer, steps, { ok: true, result });
  } catch (thrown) {
    const carried = recordOfError(thrown);
    const own = carried === permissionsRecord ? undefined : carried;
    steps?.record(own, 'returned');
    steps?.record(permissionsRecord, 'permissions');
    const record = own ?? writtenRecordOf(given) ?? permissionsRecord ?? carried;
    const error = errorFromThrown(tool.name, thrown);
    return ended(observer, steps, record === undefined ? { ok: false, error } : { ok: false, error, record });
  }
}

/** The record a thrown error carries (a `ToolError`'s, a permission denial's), if any. */
function recordOfError(thrown: unknown): ToolRecord | undefined {
  const record = typeof thrown === 'object' && thrown !== null ? (thrown as { record?: unknown }).record : undefined;
  return typeof record === 'object' && record !== null ? (record as ToolRecord) : undefined;
}

/** Steps 2 to 5 of one run (see `runToolCall`). */
async function runOnce(
  tool: CoreTool,
  args: CheckedArguments,
  ctx: CallContext,
  requireEvery: RequireEvery,
  observer: CallObserver | undefined,
  limit: CallTimeLimit | undefined,
): Promise<ToolResult> {
  if (tool.requires.length > 0) await checkDeclared(tool.requires, args.plain, requireEvery);
  if (tool.interceptors.length === 0)
    return checkedResult(tool.name, await execute(tool, args.value, ctx, observer, limit));
  const output = await runIntercepted(tool.interceptors, tool.tool, args.plain, ctx, async (given, rewritten) => {
    let use = args;
    if (rewritten) {
      use = tool.entry === undefined ? checkHandBuilt(tool, given) : await checkCompiled(tool, given);
      if (tool.requires.length > 0) await checkDeclared(tool.requires, use.plain, requireEvery);
    }
    return checkedResult(tool.name, await execute(tool, use.value, ctx, observer, limit));
  });
  return checkedResult(tool.name, output);
}

/** Step 4 and the start of step 5: the tool's own `execute`, under the time limit when there is one. */
function execute(
  tool: CoreTool,
  value: unknown,
  ctx: CallContext,
  observer: CallObserver | undefined,
  limit: CallTimeLimit | undefined,
): Promise<ToolOutput> {
  if (observer?.started !== undefined) {
    try {
      observer.started();
    } catch {
      // An observer's failure never changes the call.
    }
  }
  const entry = tool.entry;
  if (limit === undefined)
    return entry === undefined ? Promise.resolve(tool.tool.execute(value, ctx)) : entry.run(value as object, ctx);
  const callCtx = limit.contextFor(ctx);
  return limit.run(() =>
    entry === undefined ? Promise.resolve(tool.tool.execute(value, callCtx)) : entry.run(value as object, callCtx),
  );
}

/** Step 1 for a hand-built tool: the outer shape, then its `parameters` when it has them. */
function checkHandBuilt(tool: CoreTool, raw: unknown): CheckedArguments {
  let args: Record<string, unknown>;
  if (isJsonObject(raw)) {
    args = raw;
  } else {
    const shape = argumentsObject(raw);
    if (shape.problem !== undefined) throw new InvalidArgumentsError([shape.problem]);
    args = shape.value as Record<string, unknown>;
  }
  const validate = tool.validateArguments;
  if (validate !== undefined && !validate(args)) throw new InvalidArgumentsError(problemsOf(validate.errors));
  return { plain: args, value: args };
}

/** Step 1 for a compiled tool: its own pipeline, once. */
async function checkCompiled(tool: CoreTool, raw: unknown): Promise<CheckedArguments> {
  const value = await tool.entry!.parse(raw);
  return { plain: plainOf(raw), value };
}

/** The plain JSON of arguments a compiled tool's pipeline accepted (`undefined` and `""` read as `{}`). */
function plainOf(raw: unknown): Record<string, unknown> {
  return (raw === undefined || raw === '' ? {} : raw) as Record<string, unknown>;
}

/**
 * The `invalid arguments: ...` text when a hand-built tool's `parameters` refuse `args`, for a
 * host answering a question about a call without running it (MCP's `execution/facts`);
 * `undefined` when they pass, and for a compiled tool, whose own `facts` validates them.
 */
export function handBuiltArgumentsProblem(prepared: PreparedTool, args: unknown): string | undefined {
  const tool = prepared as CoreTool;
  if (tool.entry !== undefined) return undefined;
  try {
    checkHandBuilt(tool, args);
    return undefined;
  } catch (err) {
    return errorText(err);
  }
}
