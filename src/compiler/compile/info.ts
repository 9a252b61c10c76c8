import type { ContractTool, JsonObject } from '../../contract/index.js';
import { deepFreeze } from '../../util/freeze.js';
import type { ResidualConstraint } from '../schema/index.js';

/** What `compile` knows about a tool it built from a class; read it with `inspectTool`. */
export interface CompiledToolInfo {
  /** The tool class's name. */
  readonly className: string;
  /** The arguments class's name, or `undefined` for a tool without arguments. */
  readonly argsClass: string | undefined;
  /** The result class's name, when `@Tool({ result })` names one. */
  readonly resultClass: string | undefined;
  /** The method answering the facts claim, when there is one. */
  readonly factsMethod: string | undefined;
  /** Constraints the schema cannot express, checked by class-validator on every call. */
  readonly residual: readonly ResidualConstraint[];
  /** The deepest nesting of arguments the tool accepts. */
  readonly maxDepth: number;
}

const infos = new WeakMap<ContractTool, CompiledToolInfo>();

/** Records what `compile` knows about a tool it made. */
export function recordInfo(tool: ContractTool, info: CompiledToolInfo): void {
  infos.set(tool, Object.freeze(info));
}

/** What `compile` recorded about `tool`, or `undefined` for a hand-built tool. */
export function compiledInfoOf(tool: ContractTool): CompiledToolInfo | undefined {
  return infos.get(tool);
}

/** A frozen, deep copy of a JSON schema, so a listing can never change what a tool validates with. */
export function deepFrozen<T extends JsonObject>(schema: T): T {
  return deepFreeze(JSON.parse(JSON.stringify(schema)) as T);
}
