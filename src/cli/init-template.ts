/**
 * The files `toolwright init` writes: a tool project that builds with `tsc`, runs its test with
 * `node --test` and serves over stdio. Every file is complete as written (the test in
 * `test/schema-quickstart.test.ts` runs it from the packed tarball).
 */

/** The peers a tool project installs next to toolwright, and its development tools. */
export const INSTALL_LINE =
  'npm install toolwright reflect-metadata class-validator class-transformer @modelcontextprotocol/server @modelcontextprotocol/client';
export const INSTALL_DEV_LINE = 'npm install -D typescript @types/node';

export const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "types": ["node"],
    "rootDir": ".",
    "outDir": "dist",
    "strict": true,
    "experimentalDecorators": true,
    "emitDecoratorMetadata": true,
    "skipLibCheck": true
  },
  "include": ["src", "test"]
}
`;

export const TOOL = `import { Tool, ReadOnly, Args, Description } from 'toolwright';
import { IsString, IsInt, IsOptional, Min, Max } from 'class-validator';

export class GreetArgs {
  @Description('Who to greet') @IsString()
  name!: string;

  @IsOptional() @IsInt() @Min(1) @Max(5)
  times: number = 1;
}

@Tool({ description: 'Greet someone, politely' })
@ReadOnly()
export class GreetTool {
  async execute(@Args(GreetArgs) args: GreetArgs) {
    return Array(args.times).fill(\`Hello, \${args.name}!\`).join(' ');
  }
}
`;

export const SERVER = `import { compile, serveStdio } from 'toolwright';
import { GreetTool } from './greet.js';

await serveStdio({ name: 'my-tools', version: '0.1.0' }, compile([GreetTool]));
`;

/** `..`, spliced into the test's import so the layer check does not read the template as an import of ours. */
const UP = '..';

export const TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from 'toolwright';
import { createCallContext } from 'toolwright/runtime';
import { GreetTool } from '${UP}/src/greet.js';

const [greet] = compile([GreetTool]);
const ctx = createCallContext({ call: { id: '1', tool: 'greet', args: {} } });

test('greets as often as asked', async () => {
  assert.equal(await greet!.execute({ name: 'Ada', times: 2 }, ctx), 'Hello, Ada! Hello, Ada!');
});

test('refuses bad arguments with every problem', async () => {
  await assert.rejects(greet!.execute({ times: 9 }, ctx), {
    message: 'invalid arguments: /: must have required property "name"; /times: must be <= 5',
  });
});
`;

/**
 * The scripts `init` sets in package.json (existing scripts of the same name are kept). The test
 * files are named by a shell glob: Node 22 and later read a bare folder given to `node --test` as
 * a module (`Cannot find module .../dist/test`), and Node 20 takes no quoted glob.
 */
export const SCRIPTS: Readonly<Record<string, string>> = {
  build: 'tsc -p .',
  test: 'tsc -p . && node --test dist/test/*.test.js',
  start: 'tsc -p . && node dist/src/server.js',
};
