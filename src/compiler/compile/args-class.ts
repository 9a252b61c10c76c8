import type { ContractIssue } from '../../contract/index.js';
import { getArgsClass, getArgsParameter, type ToolOptions } from '../../decorators/index.js';
import { paramTypesOf, reflectMetadataLoaded } from '../schema/sources.js';
import { isDtoClass } from '../schema/type-resolution.js';

/** What `argsClassOf` finds: the DTO class, no arguments at all, or the problem. */
export type ArgsClassAnswer =
  | { readonly kind: 'class'; readonly dto: Function }
  | { readonly kind: 'none' }
  | { readonly kind: 'issue'; readonly issue: ContractIssue };

function typeName(value: unknown): string {
  return typeof value === 'function' ? value.name || '(anonymous class)' : String(value);
}

/**
 * Finds the arguments class of a tool class, in this order:
 *
 * 1. `@Tool({ args })`; an explicit `args: undefined` states that the tool takes no arguments;
 *    then `@Args(ArgsClass)` on `execute`'s first parameter (both work without design:* metadata,
 *    so on esbuild-based runners too);
 * 2. `design:paramtypes` of `execute`, parameter 0 (TypeScript records it only when the method
 *    or one of its parameters is decorated, which is what `@Args()` is for);
 * 3. an `execute` with no parameters takes no arguments.
 *
 * It reports `invalid-args-class` when the parameter's recorded type is no class (an interface,
 * a type alias, `any`, a primitive), when `execute` has parameters but no recorded types, and
 * when `args` and the recorded parameter type are unrelated classes; and
 * `reflect-metadata-missing` when reflect-metadata is not loaded at all. `className` and
 * `execute` are `cls.name` and `cls.prototype.execute`, for a caller that read them already.
 */
export function argsClassOf(
  cls: Function,
  options: ToolOptions,
  className: string = cls.name,
  execute: unknown = (cls.prototype as { execute?: unknown } | undefined)?.execute,
): ArgsClassAnswer {
  const paramTypes = typeof execute === 'function' ? paramTypesOf(cls, 'execute') : undefined;
  const recorded = Array.isArray(paramTypes) ? (paramTypes as unknown[]) : undefined;

  if (Object.prototype.hasOwnProperty.call(options, 'args')) {
    const args = options.args;
    if (args === undefined) return { kind: 'none' };
    const first = recorded?.[0];
    if (isDtoClass(first) && first !== args && !(args.prototype instanceof first)) {
      return issue(
        className,
        `class ${className}: @Tool() names args ${typeName(args)}, but execute()'s first parameter is typed ${typeName(first)}; make them the same class (or type the parameter with a base class of ${typeName(args)})`,
      );
    }
    return { kind: 'class', dto: args };
  }
  const marked = getArgsClass(cls);
  if (marked !== undefined) {
    const first = recorded?.[0];
    if (isDtoClass(first) && first !== marked && !(marked.prototype instanceof first)) {
      return issue(
        className,
        `class ${className}: @Args() names ${typeName(marked)}, but execute()'s first parameter is typed ${typeName(first)}; make them the same class`,
      );
    }
    return { kind: 'class', dto: marked };
  }
  if (typeof execute !== 'function') return { kind: 'none' };
  if (recorded === undefined && getArgsParameter(cls) !== undefined && reflectMetadataLoaded()) {
    return issue(
      className,
      `class ${className}: execute() has @Args(), but no design:paramtypes was recorded, so its class is unknown: the runner compiled this file without decorator metadata (tsx, vitest 3 and esbuild bundles use esbuild, which never emits it; with tsc, emitDecoratorMetadata is off). Name the class: @Args(${className.replace(/Tool$/, '')}Args) or @Tool({ args: ${className.replace(/Tool$/, '')}Args })`,
    );
  }
  if (recorded === undefined) {
    if (execute.length === 0) return { kind: 'none' };
    if (!reflectMetadataLoaded()) {
      return {
        kind: 'issue',
        issue: {
          code: 'reflect-metadata-missing',
          className,
          member: 'execute',
          message: `class ${className}: reflect-metadata is not loaded, so the type of execute()'s first parameter cannot be read: import 'reflect-metadata' (or toolwright) before any decorated class, or add @Tool({ args: YourArgs })`,
        },
      };
    }
    return issue(
      className,
      `class ${className}: the arguments class of execute() cannot be inferred, because TypeScript records parameter types only on decorated methods: add @Tool({ args: YourArgs }), or mark the parameter with @Args() and type it with a class (for a tool without arguments, give execute() no parameters or write @Tool({ args: undefined }))`,
    );
  }
  if (recorded.length === 0) return { kind: 'none' };
  const first = recorded[0];
  if (isDtoClass(first)) return { kind: 'class', dto: first };
  const typed =
    first === undefined
      ? 'nothing TypeScript could record (a type declared later in the file, or a circular import)'
      : first === Object
        ? 'Object (an interface, a type alias, an object literal type or any)'
        : typeName(first);
  return issue(
    className,
    `class ${className}: execute()'s first parameter is typed ${typed}, which is no class to build a schema from: add @Tool({ args: YourArgs }) or type the parameter with an arguments class`,
  );
}

function issue(className: string, message: string): ArgsClassAnswer {
  return { kind: 'issue', issue: { code: 'invalid-args-class', className, member: 'execute', message } };
}
