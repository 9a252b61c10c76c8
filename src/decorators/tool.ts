import { DecoratorError, TOOL_NAME_PATTERN } from '../contract/index.js';
import { kindOf } from '../util/describe.js';
import { cleanText } from '../util/clean-text.js';
import { checkedFor, checkNow, classTarget, optionalString, plainOptions } from './guards.js';
import { addClaims, getClaims, setToolOptions, type ToolOptions } from './metadata.js';
import { checkScopes } from './scopes.js';
import { checkOneKind } from './feature-options.js';

const TOOL_OPTION_KEYS = ['name', 'title', 'description', 'args', 'result', 'scopes'] as const;

/** The checked options of `@Tool()`: a frozen copy, `description` cleaned and `scopes` checked. */
function checkToolOptions(options: unknown): ToolOptions {
  const given = plainOptions('@Tool()', options, TOOL_OPTION_KEYS);
  optionalString('@Tool()', 'name', given.name);
  optionalString('@Tool()', 'title', given.title);
  if (typeof given.description !== 'string') {
    throw new DecoratorError(
      `@Tool(): "description" is required and must be a string, got ${kindOf(given.description)}`,
    );
  }
  if (typeof given.name === 'string' && !TOOL_NAME_PATTERN.test(given.name)) {
    throw new DecoratorError(
      `@Tool(): name ${JSON.stringify(given.name)} is not a valid MCP tool name (1 to 128 of A-Z a-z 0-9 _ - .)`,
    );
  }
  checkClassOption('args', given.args);
  checkClassOption('result', given.result);
  if (given.scopes !== undefined) {
    if (!Array.isArray(given.scopes))
      throw new DecoratorError(
        `@Tool(): "scopes" must be an array of scope names such as ['issues:write'], got ${kindOf(given.scopes)}`,
      );
    return Object.freeze({
      ...(given as unknown as ToolOptions),
      description: cleanText(given.description),
      scopes: checkScopes('@Tool() "scopes"', given.scopes, "scopes: ['issues:write']"),
    });
  }
  return Object.freeze({ ...(given as unknown as ToolOptions), description: cleanText(given.description) });
}

/** Throws unless the `@Tool()` option `key` is a class or undefined. */
function checkClassOption(key: 'args' | 'result', value: unknown): void {
  if (value !== undefined && typeof value !== 'function') {
    throw new DecoratorError(`@Tool(): "${key}" must be a class, got ${kindOf(value)}`);
  }
}

/**
 * Marks a class as a tool. The class must have an `execute(args, ctx)` method (checked by
 * `compile`). `description` is required, and listed as the author means it (surrounding
 * whitespace and the common indentation of a multi-line template literal removed; see
 * `cleanText`); `name` defaults to the class name in snake_case
 * without a trailing `Tool`; `args` defaults to `execute`'s first parameter type; `scopes` is the
 * same as `@Scopes(...)` (the scopes a caller's token must hold).
 * Throws a `DecoratorError` as the class is defined for a non-class target or a bad option,
 * naming the class (`@Tool() on class FooTool: "description" is required ...`).
 */
export function Tool(options: ToolOptions): ClassDecorator {
  const checked = checkNow('@Tool()', checkToolOptions, options);
  return (...args: unknown[]) => {
    const cls = classTarget('@Tool()', args);
    const given = checkedFor(checked, args);
    checkOneKind('@Tool()', cls, 'tool');
    setToolOptions(cls, given);
    // `scopes` is the one option that is a claim: it adds up with @Scopes, in either order.
    if (given.scopes !== undefined)
      addClaims(cls, { scopes: Object.freeze([...new Set([...(getClaims(cls).scopes ?? []), ...given.scopes])]) });
  };
}

/** The plain-function twin of `@Tool()`: marks `cls` as a tool without decorator syntax. */
export function defineTool(cls: Function, options: ToolOptions): void {
  Tool(options)(cls);
}
