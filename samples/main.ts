import { formatDefinitions } from '../src/compiler/index.js';
import { fileTools } from './files/index.js';

/**
 * Prints the definition of every sample file tool (name, description, claims, arguments and
 * result), compiled for the folder given as an argument or the current folder. With `--json`
 * the schemas are printed as JSON. It is the interim `npm start`: it shows what a model would
 * be offered, without serving it.
 */
function main(argv: readonly string[]): void {
  const json = argv.includes('--json');
  const root = argv.find((arg) => !arg.startsWith('--')) ?? process.cwd();
  const tools = fileTools(root);
  process.stdout.write(`toolwright sample: ${tools.length} file tools on ${root}\n\n`);
  process.stdout.write(formatDefinitions(tools, { schemas: json ? 'json' : 'summary' }));
}

main(process.argv.slice(2));
