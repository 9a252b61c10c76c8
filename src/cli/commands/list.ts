import { definitionOf } from '../../mcp/index.js';
import { formatDefinitions, formatFindings, lintTools } from '../../compiler/index.js';
import type { ListCommand } from '../args.js';
import type { CliIo } from '../io.js';
import { loadTools } from '../load.js';
import { featureDefinitionsOf, formatFeatures } from '../list-features.js';

/**
 * `toolwright list <module> [--json] [--profile p] [--lint]`: prints the module's tools, as a
 * readable listing (`formatDefinitions`: types read `("a" | "b")[]`, `Record<string, T>`) or,
 * with `--json`, as the exact array of MCP tool definitions the server lists (`definitionOf`),
 * pretty-printed; `--profile` lists the schemas as that profile makes them. With `--lint`, the
 * linter's findings follow the readable listing (after a blank line), or with `--json` the
 * output is `{ "tools": [...], "findings": [...] }`. A module that also serves resources or
 * prompts gets them after the tools (see `formatFeatures`), or with `--json` the output is
 * `{ "tools", "resources", "resourceTemplates", "prompts" }` (and `"findings"` with `--lint`),
 * the definitions as the server lists them. Returns exit code 0 (findings are
 * information here; `toolwright lint` fails on them); loading problems throw `CliError`.
 */
export async function listCommand(command: ListCommand, io: CliIo): Promise<number> {
  const { tools, resources, prompts } = await loadTools(
    command.module,
    io.cwd,
    command.profile === undefined ? {} : { schemaProfile: command.profile },
  );
  const definitions = tools.map((tool) => definitionOf(tool));
  const lintOptions = command.profile === undefined ? {} : { profile: command.profile };
  const more = resources !== undefined || prompts !== undefined;
  if (command.json) {
    const findings = command.lint === true ? { findings: lintTools(tools, lintOptions) } : {};
    const listed = more
      ? { tools: definitions, ...featureDefinitionsOf(resources, prompts), ...findings }
      : command.lint === true
        ? { tools: definitions, ...findings }
        : definitions;
    io.out(`${JSON.stringify(listed, null, 2)}\n`);
    return 0;
  }
  if (tools.length > 0) io.out(formatDefinitions(tools));
  if (more) io.out(`${tools.length > 0 ? '\n' : ''}${formatFeatures(resources, prompts)}`);
  if (command.lint === true) io.out(`\n${formatFindings(lintTools(tools, lintOptions))}`);
  return 0;
}
