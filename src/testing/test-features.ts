import { createCallContext, type Session } from '../contract/index.js';
import { kindOf } from '../util/describe.js';
import { compilePrompts, compileResources, type FeatureCompileOptions } from '../compiler/compile/index.js';
import type { CallCoreOptions } from '../runtime/call/index.js';
import {
  answerComplete,
  answerGetPrompt,
  answerPromptsList,
  answerRead,
  answerResourcesList,
  answerTemplatesList,
  type FeatureContextOf,
  LiveSet,
  ProtocolError,
  type ServedFeatures,
} from '../mcp/internal.js';
import type { TestCallContext, TestCallOptions } from './test-tools.js';

/** What a server without a completing prompt or template answers `completion/complete`: it has no such method. */
async function noCompletion(): Promise<never> {
  throw new ProtocolError(-32601, 'Method not found');
}

/**
 * Options of `testResources` and `testPrompts`: how the classes are compiled (`resolve`,
 * `resolveForCall`, `maxDepth`), the call-core options every host takes (`policy`, `timeoutMs`,
 * `maxOutputChars`, `validator`), the page size of the lists, and what every context offers.
 */
export interface TestFeaturesOptions extends Omit<FeatureCompileOptions, 'validator'>, CallCoreOptions {
  /** How many entries a page of the lists holds (default 100, as the server's `listPageSize`). */
  readonly listPageSize?: number;
  /** Members of every context (`principal`, `elicit`, `requirePermission`, `log`, ...); a call's own `context` wins. */
  readonly context?: TestCallContext;
}

/** Reads resources in process, through the core, with the exact MCP results a server sends. */
export interface ResourceTester {
  /** The exact `resources/list` result (one page: pass the previous `nextCursor` for the next). */
  listResources(cursor?: string): Promise<Record<string, unknown>>;
  /** The exact `resources/templates/list` result (one page). */
  listResourceTemplates(cursor?: string): Promise<Record<string, unknown>>;
  /**
   * The exact `resources/read` result a toolwright server sends for `uri`. Rejects as the server
   * answers with a JSON-RPC error: `Resource not found` (code -32602, `data.uri`), invalid template
   * variables (-32602), a failed read (-32603 with its text).
   */
  readResource(uri: string, options?: TestCallOptions): Promise<Record<string, unknown>>;
  /**
   * The exact `completion/complete` result for one variable of the template `uriTemplate`; rejects
   * with -32601 `Method not found` when nothing of the set completes (the server then declares no
   * `completions` capability).
   */
  complete(
    uriTemplate: string,
    variable: string,
    value: string,
    resolved?: Readonly<Record<string, string>>,
  ): Promise<Record<string, unknown>>;
  /**
   * Serves more resources and templates (compiled as the first ones were), as a server's
   * `addResources` does (see `ServedSet`): a URI (URI template) served already is replaced.
   * Throws what `compileResources` throws, and a `SetChangeError` for a refused change.
   */
  addResources(sources: readonly unknown[]): void;
  /** Stops serving the resources (by URI) and templates (by URI template) named. */
  removeResources(keys: readonly string[]): void;
}

/** Renders prompts in process, through the core, with the exact MCP results a server sends. */
export interface PromptTester {
  /** The exact `prompts/list` result (one page). */
  listPrompts(cursor?: string): Promise<Record<string, unknown>>;
  /**
   * The exact `prompts/get` result a toolwright server sends. Rejects as the server answers with
   * a JSON-RPC error: an unknown prompt or invalid arguments (code -32602), a failed rendering
   * (-32603 with its text).
   */
  getPrompt(name: string, args?: unknown, options?: TestCallOptions): Promise<Record<string, unknown>>;
  /** The exact `completion/complete` result for one argument of the prompt `name` (-32601 when nothing completes). */
  complete(
    name: string,
    argument: string,
    value: string,
    resolved?: Readonly<Record<string, string>>,
  ): Promise<Record<string, unknown>>;
  /**
   * Serves more prompts (compiled as the first ones were), as a server's `addPrompts` does: a
   * name served already is replaced. Throws what `compilePrompts` throws, and a `SetChangeError`
   * for a refused change.
   */
  addPrompts(sources: readonly unknown[]): void;
  /** Stops serving the prompts named. */
  removePrompts(names: readonly string[]): void;
}

function checkedOptions(options: TestFeaturesOptions, where: string): TestFeaturesOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`${where}: options must be an object, got ${kindOf(options)}`);
  return options;
}

function compileOptionsOf(options: TestFeaturesOptions): FeatureCompileOptions {
  const { resolve, resolveForCall, maxDepth, validator } = options;
  return {
    ...(resolve === undefined ? {} : { resolve }),
    ...(resolveForCall === undefined ? {} : { resolveForCall }),
    ...(maxDepth === undefined ? {} : { maxDepth }),
    ...(validator === undefined ? {} : { validator }),
  };
}

/** The host options of the served set: the call-core options and the page size, nothing of the compile options. */
function hostOptionsOf(options: TestFeaturesOptions): CallCoreOptions & { listPageSize?: number } {
  const { policy, interceptors, maxOutputChars, timeoutMs, validator, log, listPageSize } = options;
  return Object.fromEntries(
    Object.entries({ policy, interceptors, maxOutputChars, timeoutMs, validator, log, listPageSize }).filter(
      ([, value]) => value !== undefined,
    ),
  );
}

/** The context maker of one test call: every host default, a session of its own, call ids `test-<n>`. */
function contextsOf(options: TestFeaturesOptions): (own?: TestCallContext) => FeatureContextOf {
  const session: Session = Object.freeze({ id: '', transport: 'memory' });
  let calls = 0;
  return (own) => (name, args) => {
    calls += 1;
    return createCallContext({ session, ...options.context, ...own, call: { id: `test-${calls}`, tool: name, args } });
  };
}

/**
 * Makes a `ResourceTester` for `sources` (resource classes, template classes, instances and
 * contract resources), compiled with `compileResources` and prepared exactly as a server prepares
 * them. No transport and no client are set up. Throws what `compileResources` and the preparation
 * throw for bad resources or options.
 */
export function testResources(sources: readonly unknown[], options: TestFeaturesOptions = {}): ResourceTester {
  checkedOptions(options, 'testResources');
  const resources = compileResources(sources, compileOptionsOf(options));
  const live = new LiveSet({ where: 'testResources', tools: [], options: { ...hostOptionsOf(options), resources } });
  const contexts = contextsOf(options);
  const current = (): ServedFeatures => live.features!;
  return Object.freeze({
    addResources: (more: readonly unknown[]) =>
      live.update({ addResources: compileResources(more, compileOptionsOf(options)) }, 'addResources'),
    removeResources: (keys: readonly string[]) => live.update({ removeResources: keys }, 'removeResources'),
    listResources: (cursor?: string) => answerResourcesList(current(), cursorParams(cursor), contexts()),
    listResourceTemplates: async (cursor?: string) => answerTemplatesList(current(), cursorParams(cursor)),
    readResource: (uri: string, call: TestCallOptions = {}) => answerRead(current(), { uri }, contexts(call.context)),
    complete: (
      uriTemplate: string,
      variable: string,
      value: string,
      resolved: Readonly<Record<string, string>> = {},
    ) =>
      !current().completes
        ? noCompletion()
        : answerComplete(
            current(),
            {
              ref: { type: 'ref/resource', uri: uriTemplate },
              argument: { name: variable, value },
              context: { arguments: resolved },
            },
            contexts(),
          ),
  });
}

/**
 * Makes a `PromptTester` for `sources` (prompt classes, instances and contract prompts),
 * compiled with `compilePrompts` and prepared exactly as a server prepares them. Throws what
 * `compilePrompts` and the preparation throw for bad prompts or options.
 */
export function testPrompts(sources: readonly unknown[], options: TestFeaturesOptions = {}): PromptTester {
  checkedOptions(options, 'testPrompts');
  const prompts = compilePrompts(sources, compileOptionsOf(options));
  const live = new LiveSet({ where: 'testPrompts', tools: [], options: { ...hostOptionsOf(options), prompts } });
  const contexts = contextsOf(options);
  const current = (): ServedFeatures => live.features!;
  return Object.freeze({
    addPrompts: (more: readonly unknown[]) =>
      live.update({ addPrompts: compilePrompts(more, compileOptionsOf(options)) }, 'addPrompts'),
    removePrompts: (names: readonly string[]) => live.update({ removePrompts: names }, 'removePrompts'),
    listPrompts: async (cursor?: string) => answerPromptsList(current(), cursorParams(cursor)),
    getPrompt: (name: string, args?: unknown, call: TestCallOptions = {}) =>
      answerGetPrompt(current(), args === undefined ? { name } : { name, arguments: args }, contexts(call.context)),
    complete: (name: string, argument: string, value: string, resolved: Readonly<Record<string, string>> = {}) =>
      !current().completes
        ? noCompletion()
        : answerComplete(
            current(),
            {
              ref: { type: 'ref/prompt', name },
              argument: { name: argument, value },
              context: { arguments: resolved },
            },
            contexts(),
          ),
  });
}

function cursorParams(cursor: string | undefined): Record<string, unknown> {
  return cursor === undefined ? {} : { cursor };
}
