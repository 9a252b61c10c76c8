import {
  InvalidArgumentsError,
  InvalidOutputError,
  isJsonObject,
  RESOURCE_URI_PATTERN,
  type ArgumentProblem,
  type CallContext,
  type CompletionAnswer,
  type CompletionRequest,
  type ListedResource,
  type PromptResult,
  type ResourceContent,
  type ResourceContext,
  type TemplateVariables,
} from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { errorFromThrown } from '../call/errors.js';
import { CallTimeLimit } from '../call/time-limit.js';
import { contextWith } from '../permissions/context.js';
import { raceLimit, runGuarded } from './guarded.js';
import { boundContents, boundPrompt, completionAnswerOf, promptResultOf, resourceContentsOf } from './outputs.js';
import { coreOf, type PreparedPrompt, type PreparedResource, type PreparedTemplate } from './prepare.js';

/** How a read through the core ended: the contents, or the error. */
export type ReadEnd =
  { readonly ok: true; readonly contents: ResourceContent[] } | { readonly ok: false; readonly error: Error };

/** How a prompt rendering through the core ended: the result, or the error. */
export type PromptEnd =
  { readonly ok: true; readonly result: PromptResult } | { readonly ok: false; readonly error: Error };

/**
 * Reads one resource through the core, the same on every host, in this order (see `runToolCall`
 * for the tools' own):
 *
 * 1. **Variables** (a template): a template `compileResources` made turns the URI's strings into
 *    its variables class and validates them (`InvalidArgumentsError`, `invalid arguments: /id:
 *    must be integer`); a hand-built one gets them as the URI gave them.
 * 2. **Permissions**: under the host's policy, a `read` request on the URI, then the resource's
 *    `requires` on `{ uri, ...variables }` (see `runGuarded`); without a policy, only the
 *    requirements, through the context's own `requirePermission`.
 * 3. **Time limit**: the resource's `timeoutMs`, else the host's (`resource "<uri>" timed out
 *    after <ms> ms`).
 * 4. **Read**: the resource's `read`, with a context whose `uri` is the URI read.
 * 5. **Output check**: see `resourceContentsOf` (`InvalidOutputError`).
 * 6. **Output bound**: the resource's `maxOutputChars`, else the host's, over the text contents
 *    (see `boundContents`).
 *
 * It never rejects: a throw anywhere ends the read with that error.
 */
export async function runRead(
  given: PreparedResource | PreparedTemplate,
  uri: string,
  variables: TemplateVariables | undefined,
  ctx: CallContext,
): Promise<ReadEnd> {
  const prepared = coreOf(given);
  const made = prepared.kind === 'resource' ? prepared.resource : prepared.template;
  const label = uri;
  try {
    const raw = variables ?? {};
    const parsed =
      prepared.entry === undefined ? { value: raw as object, plain: { ...raw } } : await prepared.entry.parse(raw);
    const readCtx = contextWith(ctx, { uri } as Partial<ResourceContext>) as ResourceContext;
    const output = await runGuarded(
      {
        policyName: `resource:${made.name}`,
        kind: 'resource',
        label,
        timeoutMs: prepared.timeoutMs,
        policy: prepared.policy,
        requires: prepared.requires,
        plain: { uri, ...parsed.plain },
        implicit: { subject: uri, capabilities: ['read'] },
        work: (runCtx) =>
          prepared.entry !== undefined
            ? prepared.entry.run(parsed.value, runCtx)
            : prepared.kind === 'resource'
              ? prepared.resource.read(runCtx as ResourceContext)
              : prepared.template.read(raw, runCtx as ResourceContext),
      },
      readCtx,
    );
    const contents = resourceContentsOf(output, { uri, mimeType: made.mimeType }, `resource ${JSON.stringify(uri)}`);
    return {
      ok: true,
      contents: prepared.maxOutputChars === undefined ? contents : boundContents(contents, prepared.maxOutputChars),
    };
  } catch (thrown) {
    return { ok: false, error: errorFromThrown(uri, thrown, 'resource') };
  }
}

/**
 * The problems of a prompt's arguments before its own validation: every value must be a string
 * (MCP prompt arguments are named strings); a hand-built prompt's `arguments` also decide which
 * names are known and which are required (a compiled prompt's class does that itself).
 */
function argumentProblems(
  prepared: ReturnType<typeof coreOf<PreparedPrompt>>,
  args: Record<string, unknown>,
): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  for (const [name, value] of Object.entries(args))
    if (typeof value !== 'string')
      problems.push({
        pointer: `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        message: `must be a string (prompt arguments are strings), got ${kindOf(value)}`,
      });
  if (prepared.entry !== undefined) return problems;
  const declared = prepared.prompt.arguments ?? [];
  const known = new Set(declared.map((argument) => argument.name));
  for (const name of Object.keys(args))
    if (!known.has(name))
      problems.push({ pointer: '/', message: `must NOT have additional property ${JSON.stringify(name)}` });
  for (const argument of declared)
    if (argument.required === true && !Object.hasOwn(args, argument.name))
      problems.push({ pointer: '/', message: `must have required property ${JSON.stringify(argument.name)}` });
  return problems;
}

/**
 * Renders one prompt through the core, the same on every host, in this order:
 *
 * 1. **Arguments**: `undefined` reads as `{}`; anything but an object of strings is refused
 *    (`InvalidArgumentsError`); a prompt `compilePrompts` made turns them into its arguments
 *    class and validates them, a hand-built one is checked against its `arguments` (required
 *    ones given, no unknown one).
 * 2. **Permissions**: the prompt's `requires` on the arguments, through the host's policy or
 *    the context's `requirePermission` (see `runGuarded`).
 * 3. **Time limit**: the prompt's `timeoutMs`, else the host's (`prompt "<name>" timed out after
 *    <ms> ms`).
 * 4. **Render**: the prompt's `get` (a compiled class's `messages`).
 * 5. **Output check**: see `promptResultOf` (`InvalidOutputError`).
 * 6. **Output bound**: the prompt's `maxOutputChars`, else the host's (see `boundPrompt`).
 *
 * It never rejects: a throw anywhere ends the rendering with that error.
 */
export async function runPrompt(given: PreparedPrompt, args: unknown, ctx: CallContext): Promise<PromptEnd> {
  const prepared = coreOf(given);
  const prompt = prepared.prompt;
  try {
    const raw = args === undefined ? {} : args;
    if (!isJsonObject(raw))
      throw new InvalidArgumentsError([
        { pointer: '', message: `the arguments must be an object of strings, got ${kindOf(raw)}` },
      ]);
    const problems = argumentProblems(prepared, raw);
    if (problems.length > 0) throw new InvalidArgumentsError(problems);
    const parsed =
      prepared.entry === undefined ? { value: raw as object, plain: { ...raw } } : await prepared.entry.parse(raw);
    const output = await runGuarded(
      {
        policyName: `prompt:${prompt.name}`,
        kind: 'prompt',
        label: prompt.name,
        timeoutMs: prepared.timeoutMs,
        policy: prepared.policy,
        requires: prepared.requires,
        plain: parsed.plain,
        implicit: undefined,
        work: (runCtx) =>
          prepared.entry !== undefined
            ? prepared.entry.run(parsed.value, runCtx)
            : prompt.get(raw as Record<string, string>, runCtx),
      },
      ctx,
    );
    const result = promptResultOf(output, `prompt ${JSON.stringify(prompt.name)}`);
    return {
      ok: true,
      result: prepared.maxOutputChars === undefined ? result : boundPrompt(result, prepared.maxOutputChars),
    };
  } catch (thrown) {
    return { ok: false, error: errorFromThrown(prompt.name, thrown, 'prompt') };
  }
}

/**
 * Completes one argument of a prompt or variable of a template through the core: its
 * `complete` under its time limit, then the answer checked and bounded to 100 values (see
 * `completionAnswerOf`). Without `complete` it answers no values. Rejects with what `complete`
 * throws, the timeout (`CallTimeoutError`) or `InvalidOutputError`.
 */
export async function runComplete(
  prepared: PreparedPrompt | PreparedTemplate,
  request: CompletionRequest,
  ctx: CallContext,
): Promise<CompletionAnswer> {
  const made = prepared.kind === 'prompt' ? prepared.prompt : prepared.template;
  const complete = made.complete;
  if (complete === undefined) return { values: [] };
  const output = await limited(prepared, made.name, ctx, (runCtx) => complete.call(made, request, runCtx));
  return completionAnswerOf(output, `completion of ${JSON.stringify(request.argument)}`);
}

/**
 * The concrete resources a template's `list` enumerates, under the template's time limit; none
 * without `list`. Each must have an absolute `uri` and a non-empty `name`; rejects with
 * `InvalidOutputError` naming the template otherwise, or with what `list` throws.
 */
export async function runList(prepared: PreparedTemplate, ctx: CallContext): Promise<readonly ListedResource[]> {
  const template = prepared.template;
  if (template.list === undefined) return [];
  const list = template.list;
  const output = await limited(prepared, template.uriTemplate, ctx, (runCtx) => list.call(template, runCtx));
  const what = `the list of template ${JSON.stringify(template.uriTemplate)}`;
  if (!Array.isArray(output)) throw new InvalidOutputError(`${what} is ${kindOf(output)}, not an array of resources`);
  output.forEach((listed: unknown, index) => {
    if (
      !isJsonObject(listed) ||
      typeof listed.uri !== 'string' ||
      !RESOURCE_URI_PATTERN.test(listed.uri) ||
      typeof listed.name !== 'string' ||
      listed.name === ''
    )
      throw new InvalidOutputError(`${what}: resource ${index} needs an absolute "uri" and a non-empty "name"`);
  });
  return output as readonly ListedResource[];
}

async function limited<T>(
  prepared: PreparedPrompt | PreparedTemplate,
  label: string,
  ctx: CallContext,
  work: (ctx: CallContext) => Promise<T>,
): Promise<T> {
  if (prepared.timeoutMs === undefined) return work(ctx);
  const limit = new CallTimeLimit(label, prepared.timeoutMs, prepared.kind === 'prompt' ? 'prompt' : 'resource');
  return raceLimit(
    limit,
    limit.run(() => work(limit.contextFor(ctx))),
  );
}
