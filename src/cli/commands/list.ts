import { definitionOf } from '../../mcp/index.js';
import { formatDefinitions, formatFindings, lintTools } from '../../compiler/index.js';
import type { ListCommand } from '../args.js';
import type { CliIo } from '../io.js';
import { loadTools } from '../load.js';

/**
 * `toolwright list <module> [--json] [--profile p] [--lint]`: prints the module's tools, as a
 * readable listing (`formatDefinitions`: types read `("a" | "b")[]`, `Record<string, T>`) or,
 * with `--json`, as the exact array of MCP tool definitions the server lists (`definitionOf`),
 * pretty-printed; `--profile` lists the schemas as that profile makes them. With `--lint`, the
 * linter's findings follow the readable listing (after a blank line), or with `--json` the
 * output is `{ "tools": [...], "findings": [...] }`. Returns exit code 0 (findings are
 * information here; `toolwright lint` fails on them); loading problems throw `CliError`.
 */
export async function listCommand(command: ListCommand, io: CliIo): Promise<number> {
  const { tools } = await loadTools(
    command.module,
    io.cwd,
    command.profile === undefined ? {} : { schemaProfile: command.profile },
  );
  const definitions = tools.map((tool) => definitionOf(tool));
  if (command.json) {
    io.out(
      `${JSON.stringify(command.lint === true ? { tools: definitions, findings: lintTools(tools) } : definitions, null, 2)}\n`,
    );
    return 0;
  }
  io.out(formatDefinitions(tools));
  if (command.lint === true) io.out(`\n${formatFindings(lintTools(tools))}`);
  return 0;
}
