import { formatFindings, lintTools } from '../../compiler/index.js';
import type { LintCommand } from '../args.js';
import type { CliIo } from '../io.js';
import { loadTools } from '../load.js';

/**
 * `toolwright lint <module> [--profile p] [--provider a,b] [--json]`: loads the module's tools
 * (listed as `--profile` makes them), checks every input and output schema against the chosen
 * providers' documented rules, and prints the findings (`formatFindings`, or a JSON array with
 * `--json`). Returns 1 when there is any finding and 0 when there is none; loading problems
 * throw `CliError` (exit 2).
 */
export async function lintCommand(command: LintCommand, io: CliIo): Promise<number> {
  const { tools } = await loadTools(
    command.module,
    io.cwd,
    command.profile === undefined ? {} : { schemaProfile: command.profile },
  );
  const findings = lintTools(
    tools,
    command.providers !== undefined
      ? { providers: command.providers }
      : command.profile === undefined
        ? {}
        : { profile: command.profile },
  );
  io.out(command.json ? `${JSON.stringify(findings, null, 2)}\n` : formatFindings(findings));
  return findings.length === 0 ? 0 : 1;
}
