import { definitionOf } from '../../mcp/index.js';
import { formatDefinitions } from '../../compiler/index.js';
import type { ListCommand } from '../args.js';
import type { CliIo } from '../io.js';
import { loadTools } from '../load.js';

/**
 * `toolwright list <module> [--json]`: prints the module's tools, as a readable listing
 * (`formatDefinitions`) or, with `--json`, as the exact array of MCP tool definitions the server
 * lists (`definitionOf`), pretty-printed. Returns exit code 0; loading problems throw `CliError`.
 */
export async function listCommand(command: ListCommand, io: CliIo): Promise<number> {
  const { tools } = await loadTools(command.module, io.cwd);
  if (command.json) io.out(`${JSON.stringify(tools.map((tool) => definitionOf(tool)), null, 2)}\n`);
  else io.out(formatDefinitions(tools));
  return 0;
}
