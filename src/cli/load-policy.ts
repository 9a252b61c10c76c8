import { errorText, kindOf } from '../util/describe.js';
import { createPolicy, PermissionPolicy, type PermissionPolicyOptions } from '../runtime/index.js';
import { CliError } from './cli-error.js';

/**
 * The permission policy a module gives the CLI in its `policy` export: a `PermissionPolicy`
 * (from `createPolicy`) as it is, or the options of `createPolicy` (`{ rules, implications, ... }`),
 * made into one. `undefined` when the module exports no `policy`. Fails with a `CliError` naming
 * the module for anything else (`module "x": its "policy" export must be a PermissionPolicy or
 * createPolicy options, got a string`) and for options `createPolicy` refuses (its message).
 */
export function policyExported(exports: Record<string, unknown>, modulePath: string): PermissionPolicy | undefined {
  const given = exports.policy;
  if (given === undefined) return undefined;
  if (given instanceof PermissionPolicy) return given;
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw new CliError(
      `module ${JSON.stringify(modulePath)}: its "policy" export must be a PermissionPolicy or createPolicy options, got ${kindOf(given)}`,
    );
  try {
    return createPolicy(given as PermissionPolicyOptions);
  } catch (error) {
    throw new CliError(`module ${JSON.stringify(modulePath)}: its "policy" export: ${errorText(error)}`);
  }
}

/**
 * The policy a CLI command runs the module's tools under: the module's own; else, with `--ask`,
 * a policy with no rules (every permission a tool asks for is put to the user; see
 * `PermissionPolicy`); else none (a tool that needs a permission is denied with
 * `NoPermissionPolicyError`).
 */
export function cliPolicyOf(exported: PermissionPolicy | undefined, ask: boolean): PermissionPolicy | undefined {
  return exported ?? (ask ? createPolicy({}) : undefined);
}
