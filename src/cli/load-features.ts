import { ContractError, type ContractPrompt, type ContractResources } from '../contract/index.js';
import { getPromptOptions, getResourceTemplateOptions, getStaticResourceOptions } from '../decorators/index.js';
import { compilePrompts, compileResources } from '../compiler/index.js';
import { isServerChanges, type ServedSet, type ServerChanges } from '../mcp/index.js';
import { kindOf, errorText } from '../util/describe.js';
import { CliError } from './cli-error.js';

/** What a module serves besides tools, compiled, where it announces changes, and what it wants told once served. */
export interface LoadedFeatures {
  readonly resources: ContractResources | undefined;
  readonly prompts: readonly ContractPrompt[] | undefined;
  readonly changes: ServerChanges | undefined;
  /** The module's `onServe` export: called once serving, with what it serves (to change it later). */
  readonly onServe: ((served: ServedSet) => unknown) | undefined;
}

/**
 * The resources and prompts a module's exports give, compiled (see `compileResources` and
 * `compilePrompts`), each `undefined` when the module gives none: its `resources` (or `prompts`)
 * export, an array of classes, instances and contract values or a function returning one (called
 * once, with no arguments), else every exported `@StaticResource` / `@ResourceTemplate` (or
 * `@Prompt`) class, in export-name order; its `changes` export, a `ServerChanges` the
 * application announces resource changes on; and its `onServe` export, a function `toolwright
 * serve` calls once serving with the running server's `ServedSet` (so the module can add and
 * remove tools, resources and prompts later). Fails with a `CliError` naming the module for a
 * malformed export, a function that fails, or the compile problems.
 */
export async function featuresExported(exports: Record<string, unknown>, modulePath: string): Promise<LoadedFeatures> {
  const module = JSON.stringify(modulePath);
  const resources = await listed(
    exports,
    'resources',
    modulePath,
    (value) => getStaticResourceOptions(value) !== undefined || getResourceTemplateOptions(value) !== undefined,
  );
  const prompts = await listed(exports, 'prompts', modulePath, (value) => getPromptOptions(value) !== undefined);
  const changes = exports.changes;
  if (changes !== undefined && !isServerChanges(changes))
    throw new CliError(`module ${module}: its "changes" export must be a ServerChanges, got ${kindOf(changes)}`);
  const onServe = exports.onServe;
  if (onServe !== undefined && typeof onServe !== 'function')
    throw new CliError(
      `module ${module}: its "onServe" export must be a function (served) => void, got ${kindOf(onServe)}`,
    );
  return {
    resources:
      resources === undefined ? undefined : compiled(() => compileResources(resources), modulePath, 'resources'),
    prompts: prompts === undefined ? undefined : compiled(() => compilePrompts(prompts), modulePath, 'prompts'),
    changes: changes as ServerChanges | undefined,
    onServe: onServe as LoadedFeatures['onServe'],
  };
}

async function listed(
  exports: Record<string, unknown>,
  key: 'resources' | 'prompts',
  modulePath: string,
  marked: (value: Function) => boolean,
): Promise<unknown[] | undefined> {
  const module = JSON.stringify(modulePath);
  let given = exports[key];
  if (typeof given === 'function' && !marked(given)) {
    try {
      given = await (given as () => unknown)();
    } catch (error) {
      throw new CliError(`module ${module}: its ${key}() function failed: ${errorText(error)}`);
    }
    if (!Array.isArray(given))
      throw new CliError(`module ${module}: its ${key}() function must return an array, got ${kindOf(given)}`);
  }
  if (given !== undefined) {
    if (!Array.isArray(given))
      throw new CliError(
        `module ${module}: its "${key}" export must be an array or a function returning one, got ${typeof given === 'function' ? 'a class (wrap it in an array)' : kindOf(given)}`,
      );
    return [...given];
  }
  const classes: unknown[] = [];
  for (const value of Object.values(exports))
    if (typeof value === 'function' && marked(value) && !classes.includes(value)) classes.push(value);
  return classes.length === 0 ? undefined : classes;
}

function compiled<T>(make: () => T, modulePath: string, what: string): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof ContractError)
      throw new CliError(`module ${JSON.stringify(modulePath)}: ${error.message.replace(/^toolwright: /, '')}`);
    throw new CliError(`module ${JSON.stringify(modulePath)}: cannot compile its ${what}: ${errorText(error)}`);
  }
}
