import { InvalidArgumentsError, isJsonObject, type CallContext, type ContractTool, type PermissionRequest, type Requirement } from '../../contract/index.js';
import { messageOf } from '../../util/describe.js';
import { argumentsObject, compileSchema, problemsOf } from '../../compiler/validation/index.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { PermissionDeniedError } from './errors.js';

const validators = new WeakMap<object, ValidateFunction>();

function validatorOf(tool: ContractTool, schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (validate === undefined) {
    try {
      validate = compileSchema(schema);
    } catch (err) {
      throw new Error(`tool ${JSON.stringify(tool.name)}: its parameters schema does not compile: ${messageOf(err)}`);
    }
    validators.set(schema, validate);
  }
  return validate;
}

/**
 * The arguments a declarative requirement's `subject` sees: the raw arguments (`undefined` and
 * `""` read as `{}`, as a compiled tool reads them), checked against the tool's `parameters`
 * schema with the shared Ajv first, so `subject` only ever sees arguments the tool itself would
 * accept. They are plain JSON, not the DTO instance (`(a) => a.path` reads the same either way).
 * Throws `InvalidArgumentsError` with the schema's problems, or `invalid arguments: /: must be
 * object` for a non-object when the tool has no schema.
 */
export function argumentsForRequirements(tool: ContractTool, raw: unknown): Record<string, unknown> {
  const args = argumentsObject(raw).value ?? raw;
  if (tool.parameters !== undefined) {
    const validate = validatorOf(tool, tool.parameters);
    if (!validate(args)) throw new InvalidArgumentsError(problemsOf(validate.errors));
  }
  if (!isJsonObject(args)) throw new InvalidArgumentsError([{ pointer: '/', message: 'must be object' }]);
  return args;
}

/**
 * The subjects of one requirement for `args`: `subject(args)` as a non-empty list of non-empty
 * strings. A throw or any other answer fails the call with
 * `invalid arguments: cannot tell the permission subject: <why>`, and the tool never runs.
 */
export function subjectsOf(requirement: Requirement, args: Record<string, unknown>): string[] {
  let given: unknown;
  try {
    given = requirement.subject(args);
  } catch (err) {
    throw new InvalidArgumentsError([{ pointer: '', message: `cannot tell the permission subject: ${messageOf(err)}` }]);
  }
  const list = typeof given === 'string' ? [given] : Array.isArray(given) ? given : undefined;
  if (list === undefined || list.length === 0 || !list.every((s) => typeof s === 'string' && s !== '')) {
    throw new InvalidArgumentsError([{ pointer: '', message: `cannot tell the permission subject: subject() must return a non-empty string or a non-empty array of them, got ${describe(given)}` }]);
  }
  return list as string[];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value;
}

/** The permission request a requirement makes for its subjects (the label applies to each). */
export function requestOf(requirement: Requirement, subjects: readonly string[]): PermissionRequest {
  const label = requirement.label;
  return {
    subject: subjects[0]!,
    ...(subjects.length > 1 || label !== undefined ? { subjects: subjects.map((subject) => ({ label: label ?? '', subject })) } : {}),
    capabilities: requirement.capabilities,
    ...(requirement.reason === undefined ? {} : { reason: requirement.reason }),
  };
}

/**
 * Checks a tool's declarative requirements (`@Requires`) through `ctx.requirePermission`, in
 * order, before the tool runs; every capability of each requirement must be granted on every
 * subject. For a tool's own `execute` or a host that does not use `applyPolicy`: without a policy
 * `ctx.requirePermission` rejects, so nothing runs unchecked. A partial grant fails with
 * `PermissionDeniedError` naming the capabilities missing on the first subject; arguments the
 * tool's schema refuses fail first with `InvalidArgumentsError` (see `argumentsForRequirements`).
 * Resolves the grants, one list per requirement.
 */
export async function checkRequirements(tool: ContractTool, raw: unknown, ctx: CallContext): Promise<ReadonlyArray<readonly string[]>> {
  if ((tool.requires ?? []).length === 0) return [];
  return checkRequirementsOn(tool, argumentsForRequirements(tool, raw), ctx);
}

/**
 * `checkRequirements` for arguments already accepted by the tool's own validation (a compiled
 * tool's pipeline), so they are not validated a second time. Internal to the runtime.
 */
export async function checkRequirementsOn(tool: ContractTool, args: Record<string, unknown>, ctx: CallContext): Promise<ReadonlyArray<readonly string[]>> {
  const requirements = tool.requires ?? [];
  const grants: Array<readonly string[]> = [];
  for (const requirement of requirements) {
    const request = requestOf(requirement, subjectsOf(requirement, args));
    const granted = await ctx.requirePermission(request);
    const missing = request.capabilities.filter((c) => !granted.includes(c));
    if (missing.length > 0) throw new PermissionDeniedError([{ subject: request.subject, capabilities: missing }]);
    grants.push(granted);
  }
  return grants;
}
