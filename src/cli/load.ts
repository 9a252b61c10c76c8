import { existsSync, statSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ContractError, type ContractTool } from '../contract/index.js';
import { kindOf, errorText } from '../util/describe.js';
import { getToolOptions } from '../decorators/index.js';
import { compile, type SchemaProfile } from '../compiler/index.js';
import { featuresExported, type LoadedFeatures } from './load-features.js';
import { policyExported } from './load-policy.js';
import type { PermissionPolicy } from '../runtime/index.js';
import { CliError } from './cli-error.js';

export { CliError } from './cli-error.js';

/** The tools a module gives, compiled, what it serves besides, and the name the server is known by by default. */
export interface LoadedTools extends LoadedFeatures {
  /** The absolute path of the module. */
  readonly path: string;
  /** The module's file name without extension, or its folder's name for `index`/`main`. */
  readonly defaultName: string;
  readonly tools: readonly ContractTool[];
  /** The module's `policy` export, as a policy (see `policyExported`); `undefined` when it has none. */
  readonly policy?: PermissionPolicy;
}

/**
 * Imports the compiled ES module at `modulePath` (resolved against `cwd`) and compiles the tools it
 * exports. When the module exports `tools` (or a default export that is an array), those are the
 * tools, in that order: tool classes, instances of tool classes, and contract tools, mixed freely
 * (listed as `options.schemaProfile` makes them). `tools` may also be a function returning that
 * array (or a promise of it), called once with no arguments: the way to build tools whose
 * constructors need arguments. Otherwise every exported class with `@Tool` metadata is a tool, in
 * export-name order; other exports are ignored. Classes are instantiated with `new Class()`.
 *
 * Its resources, prompts and `changes` are read as `featuresExported` says; a module may give
 * those without tools. Its `policy` export, when it has one, is read as `policyExported` says.
 *
 * Fails with a `CliError` naming the module: the file does not exist
 * (`cannot load module "x": file not found`), importing it throws (`cannot load module "x":
 * <message>`), `tools` is neither an array nor a function returning one, the `tools()` function
 * throws, the module gives no tools, resources or prompts, or `compile` finds problems (the `ContractError` message,
 * every issue listed). It never serves or runs anything but that `tools()` function.
 */
export async function loadTools(
  modulePath: string,
  cwd: string,
  options: { readonly schemaProfile?: SchemaProfile } = {},
): Promise<LoadedTools> {
  const path = resolve(cwd, modulePath);
  if (!existsSync(path) || !statSync(path).isFile())
    throw new CliError(`cannot load module ${JSON.stringify(modulePath)}: file not found`);
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`cannot load module ${JSON.stringify(modulePath)}: ${errorText(error)}`);
  }
  const given = await toolsExported(exports, modulePath);
  const features = await featuresExported(exports, modulePath);
  const policy = policyExported(exports, modulePath);
  if (given.length === 0 && features.resources === undefined && features.prompts === undefined) {
    throw new CliError(
      `module ${JSON.stringify(modulePath)} exports no tools: export classes decorated with @Tool, or a "tools" array of tool classes, instances or contract tools (resources and prompts: @StaticResource, @ResourceTemplate and @Prompt classes, or "resources" and "prompts" arrays)`,
    );
  }
  let tools: readonly ContractTool[];
  try {
    tools = compile(
      given as Parameters<typeof compile>[0],
      options.schemaProfile === undefined ? {} : { schemaProfile: options.schemaProfile },
    );
  } catch (error) {
    if (error instanceof ContractError)
      throw new CliError(`module ${JSON.stringify(modulePath)}: ${error.message.replace(/^toolwright: /, '')}`);
    throw new CliError(`module ${JSON.stringify(modulePath)}: cannot compile its tools: ${errorText(error)}`);
  }
  return { path, defaultName: defaultNameOf(path), tools, ...features, ...(policy === undefined ? {} : { policy }) };
}

/** What the module offers as tools, before compiling: its `tools` list (or factory) or its `@Tool` classes. */
async function toolsExported(exports: Record<string, unknown>, modulePath: string): Promise<unknown[]> {
  let listed = 'tools' in exports ? exports.tools : Array.isArray(exports.default) ? exports.default : undefined;
  if (typeof listed === 'function' && getToolOptions(listed) === undefined) {
    try {
      listed = await (listed as () => unknown)();
    } catch (error) {
      throw new CliError(`module ${JSON.stringify(modulePath)}: its tools() function failed: ${errorText(error)}`);
    }
    if (!Array.isArray(listed))
      throw new CliError(
        `module ${JSON.stringify(modulePath)}: its tools() function must return an array, got ${exportedKindOf(listed)}`,
      );
  }
  if (listed !== undefined) {
    if (!Array.isArray(listed))
      throw new CliError(
        `module ${JSON.stringify(modulePath)}: its "tools" export must be an array or a function returning one, got ${exportedKindOf(listed)}`,
      );
    return [...listed];
  }
  const classes: unknown[] = [];
  for (const value of Object.values(exports)) {
    if (typeof value === 'function' && getToolOptions(value) !== undefined && !classes.includes(value))
      classes.push(value);
  }
  return classes;
}

/** `kindOf`, except that a lone tool class is named as the likely mistake it is. */
function exportedKindOf(value: unknown): string {
  return typeof value === 'function' ? 'a tool class (wrap it in an array)' : kindOf(value);
}

function defaultNameOf(path: string): string {
  const stem = basename(path, extname(path));
  return stem === 'index' || stem === 'main' ? basename(dirname(path)) : stem;
}
