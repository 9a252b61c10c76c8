import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { isJsonObject } from '../../contract/index.js';
import { errorText } from '../../util/describe.js';
import type { InitCommand } from '../args.js';
import type { CliIo } from '../io.js';
import { CliError } from '../cli-error.js';
import { INSTALL_DEV_LINE, INSTALL_LINE, SCRIPTS, SERVER, TEST, TOOL, TSCONFIG } from '../init-template.js';

/** The files `init` writes, relative to the project folder. */
const FILES: readonly (readonly [string, string])[] = [
  ['tsconfig.json', TSCONFIG],
  ['src/greet.ts', TOOL],
  ['src/server.ts', SERVER],
  ['test/greet.test.ts', TEST],
];

/**
 * `toolwright init [dir]`: writes a working tool project into `dir` (default: the current
 * folder, created when missing): `tsconfig.json`, `src/greet.ts` (a tool), `src/server.ts` (an
 * stdio server), `test/greet.test.ts` (node:test on the compiled tool), and a `package.json`
 * with `"type": "module"` and `build`/`test`/`start` scripts (an existing package.json keeps its
 * fields and scripts; `type` must then be `module` or absent). It never overwrites a file: when
 * any of them exists, nothing is written and a `CliError` lists them. Prints the files written
 * and the install lines. Returns 0.
 */
export async function initCommand(command: InitCommand, io: CliIo): Promise<number> {
  const folder = resolve(io.cwd, command.dir ?? '.');
  const existing = FILES.map(([path]) => path).filter((path) => existsSync(join(folder, path)));
  if (existing.length > 0)
    throw new CliError(
      `init: ${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''} in ${folder}; run init in an empty folder (nothing was written)`,
    );
  const manifest = packageJson(folder);
  try {
    for (const [path, text] of FILES) {
      mkdirSync(join(folder, path, '..'), { recursive: true });
      writeFileSync(join(folder, path), text, { flag: 'wx' });
    }
    writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  } catch (error) {
    throw new CliError(`init: cannot write the project into ${folder}: ${errorText(error)}`);
  }
  io.out(
    [
      `wrote ${['package.json', ...FILES.map(([path]) => path)].join(', ')} in ${folder}`,
      '',
      'next:',
      ...(command.dir === undefined ? [] : [`  cd ${command.dir}`]),
      `  ${INSTALL_LINE}`,
      `  ${INSTALL_DEV_LINE}`,
      '  npm test                                         # builds and runs test/greet.test.ts',
      `  npx toolwright call dist/src/greet.js greet '{"name":"Ada"}'`,
      '',
    ].join('\n'),
  );
  return 0;
}

/** The package.json to write: the existing one with `type` and the scripts added, or a new one. */
function packageJson(folder: string): Record<string, unknown> {
  const path = join(folder, 'package.json');
  let manifest: Record<string, unknown> = {
    name:
      basename(folder)
        .toLowerCase()
        .replace(/[^a-z0-9._-]/g, '-') || 'my-tools',
    version: '0.1.0',
    private: true,
  };
  if (existsSync(path)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new CliError(`init: ${path} is not valid JSON (${errorText(error)}); fix it or remove it`);
    }
    if (!isJsonObject(parsed)) throw new CliError(`init: ${path} must hold a JSON object`);
    if (parsed.type !== undefined && parsed.type !== 'module')
      throw new CliError(
        `init: ${path} has "type": ${JSON.stringify(parsed.type)}; toolwright projects are ES modules ("type": "module")`,
      );
    manifest = { ...parsed };
  }
  const scripts = isJsonObject(manifest.scripts) ? { ...manifest.scripts } : {};
  for (const [name, script] of Object.entries(SCRIPTS))
    if (scripts[name] === undefined || /no test specified/.test(String(scripts[name]))) scripts[name] = script;
  return { ...manifest, type: 'module', scripts };
}
