import { isJsonObject, TOOL_NAME_PATTERN, type ContractIssue, type ContractTool } from '../../contract/index.js';
import { errorText } from '../../util/describe.js';
import type { SchemaValidator } from '../validation/validator.js';
import { compileInDialect, dialectName, dialectOf } from '../validation/dialect.js';
import { CONTRACT_KEYS } from './contract-keys.js';
import { handBuiltTaskIssues } from './task-claims.js';

/**
 * True when `value` (an object whose class has no `@Tool`) is to be checked as a hand-built
 * contract tool: a plain object (or one without a prototype), or any object with a string `name`.
 */
export function looksHandBuilt(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || typeof (value as { name?: unknown }).name === 'string';
}

/**
 * Checks a hand-built contract tool: a valid name (`invalid-name`), a non-blank description
 * (`missing-description`), an `execute` function (`missing-execute`), and `parameters` and
 * `outputSchema`, when given, that compile in the dialect they declare (`invalid-schema`; see
 * `compileInDialect`: 2020-12 by default, draft-07 and draft-04 however `$schema` spells them, a
 * dialect no validator knows accepted unchecked, as every host serves it). The schemas are only
 * checked here (a schema the default validator can vouch for is not compiled yet, see
 * `compileWhenFirstUsed`); the hosts' call core validates a hand-built tool's arguments and
 * structured content against them. A `task` claim is checked too (see `handBuiltTaskIssues`).
 */
export function handBuiltIssues(tool: object, label: string, validator?: SchemaValidator): ContractIssue[] {
  const issues: ContractIssue[] = [];
  const given = tool as Partial<Record<(typeof CONTRACT_KEYS)[number], unknown>>;
  const className = '';
  if (typeof given.name !== 'string' || !TOOL_NAME_PATTERN.test(given.name)) {
    issues.push({
      code: 'invalid-name',
      className,
      member: 'name',
      message: `${label} has name ${given.name === undefined ? 'undefined' : JSON.stringify(given.name)}, which is not a valid MCP tool name: give it a "name" of 1 to 128 of A-Z a-z 0-9 _ - .`,
    });
  }
  if (typeof given.description !== 'string' || given.description.trim() === '') {
    issues.push({
      code: 'missing-description',
      className,
      member: 'description',
      message: `${label} has no description: give it a "description" that tells the model what the tool does`,
    });
  }
  if (typeof given.execute !== 'function') {
    issues.push({
      code: 'missing-execute',
      className,
      member: 'execute',
      message: `${label} has no execute function: give it execute(args, ctx) returning the tool's output`,
    });
  }
  for (const key of ['parameters', 'outputSchema'] as const) {
    const schema = given[key];
    if (schema === undefined) continue;
    let problem: string | undefined;
    // The dialect rule of every host (see dialect.ts): checked in the dialect it declares, and a
    // dialect no validator knows is not refused here (the host serves it unvalidated and says so).
    const dialect = isJsonObject(schema) ? (dialectOf(schema) ?? '2020-12') : '2020-12';
    if (!isJsonObject(schema)) problem = 'it is not a JSON Schema object';
    else {
      try {
        compileInDialect(schema, validator);
      } catch (err) {
        problem = errorText(err);
      }
    }
    if (problem !== undefined)
      issues.push({
        code: 'invalid-schema',
        className,
        member: key,
        message: `${label}: "${key}" is not a valid ${dialectName(dialect)} (${problem}); fix the schema`,
      });
  }
  issues.push(...handBuiltTaskIssues(given, label));
  return issues;
}

/**
 * Returns a hand-built tool ready to serve: the tool itself when it is already frozen (a tool
 * `compile` or `wrap` made keeps its identity and hidden marks), otherwise a frozen copy of every
 * own property and every contract property it inherits, with its methods bound to the original
 * (so a class-based tool keeps its mutable state). It never freezes or changes the original.
 */
export function frozenHandBuilt(tool: ContractTool): ContractTool {
  if (Object.isFrozen(tool)) return tool;
  const copy: Record<string | symbol, unknown> = {};
  const source = tool as unknown as Record<string | symbol, unknown>;
  const put = (key: string | symbol): void => {
    const value = source[key];
    const enumerable = Object.getOwnPropertyDescriptor(tool, key)?.enumerable ?? true;
    Object.defineProperty(copy, key, {
      value: typeof value === 'function' ? (value as Function).bind(tool) : value,
      enumerable,
    });
  };
  for (const key of Reflect.ownKeys(tool)) put(key);
  for (const key of CONTRACT_KEYS)
    if (!Object.prototype.hasOwnProperty.call(copy, key) && source[key] !== undefined) put(key);
  return Object.freeze(copy) as unknown as ContractTool;
}
