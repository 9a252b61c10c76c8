import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { CallContext, ContractTool, JsonObject, ToolFacts, ToolOutput } from '../../contract/index.js';
import { getClaims, type ToolOptions } from '../../decorators/index.js';
import { checkRequirementsOn } from '../../runtime/permissions/requirements.js';
import { markSelfValidating } from '../validation/ajv.js';
import { argumentsObject, type ArgumentsPipeline } from '../validation/index.js';
import { IDENTITY_KEYS, METHOD_KEYS } from './contract-keys.js';
import { outputOf } from './output.js';

/** Properties of a compiled tool that `compile` sets itself and a claim can never override. */
const OWN_KEYS: ReadonlySet<string> = new Set([...IDENTITY_KEYS, ...METHOD_KEYS]);

/** Everything a compiled tool is made of. */
export interface BuildParts {
  readonly cls: Function;
  readonly instance: object;
  readonly name: string;
  readonly toolOptions: ToolOptions;
  readonly parameters: JsonObject;
  readonly outputSchema: JsonObject | undefined;
  readonly pipeline: ArgumentsPipeline;
  readonly validateResult: ValidateFunction | undefined;
  readonly factsMethod: string | symbol | undefined;
}

/**
 * Assembles the frozen, self-validating contract tool of a class: name, title, description,
 * schemas, and every recorded claim except the keys `compile` sets itself (`OWN_KEYS`), copied
 * as recorded. Its `execute(raw, ctx)` runs, in order: the arguments pipeline (rejecting with
 * `InvalidArgumentsError`); the `@Requires` checks through `ctx.requirePermission` (so a tool
 * with requirements never runs unchecked: without a policy nothing is granted); the instance's
 * `execute(dto, ctx)`; and `outputOf`. `facts(raw, ctx)` (only when a method is marked
 * `@Facts()`) runs the same pipeline, then that method with the DTO. `close()` (only when the
 * instance has one) calls the instance's. Errors thrown by the instance propagate unchanged.
 */
export function buildTool(parts: BuildParts): ContractTool {
  const { instance, name, pipeline, validateResult } = parts;
  const methods = instance as Record<string | symbol, (...args: unknown[]) => unknown>;
  const tool: Record<string, unknown> = { name };
  if (parts.toolOptions.title !== undefined) tool.title = parts.toolOptions.title;
  tool.description = parts.toolOptions.description;
  tool.parameters = parts.parameters;
  if (parts.outputSchema !== undefined) tool.outputSchema = parts.outputSchema;
  for (const [key, value] of Object.entries(getClaims(parts.cls))) {
    if (!OWN_KEYS.has(key) && value !== undefined) tool[key] = value;
  }
  const checksRequirements = Array.isArray(tool.requires) && tool.requires.length > 0;
  tool.execute = async (raw: unknown, ctx: CallContext): Promise<ToolOutput> => {
    const args = await pipeline.parse(raw);
    // The pipeline accepted `raw`: the requirements read it as plain JSON without validating it again.
    if (checksRequirements) await checkRequirementsOn(tool as unknown as ContractTool, argumentsObject(raw).value as Record<string, unknown>, ctx);
    const output = await methods.execute!.call(instance, args, ctx);
    return outputOf(output, { toolName: name, validateResult });
  };
  const factsMethod = parts.factsMethod;
  if (factsMethod !== undefined) {
    tool.facts = async (raw: JsonObject, ctx: CallContext): Promise<ToolFacts> => {
      const args = await pipeline.parse(raw);
      return (await methods[factsMethod]!.call(instance, args, ctx)) as ToolFacts;
    };
  }
  if (typeof methods.close === 'function') {
    tool.close = async (): Promise<void> => {
      await methods.close!.call(instance);
    };
  }
  return Object.freeze(markSelfValidating(tool as unknown as ContractTool));
}

