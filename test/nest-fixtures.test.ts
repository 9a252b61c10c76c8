import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { REPO_ROOT } from './support/cli-paths.js';
import { packedProject, type PackedProject } from './support/packed-project.js';

/**
 * The README's NestJS install line and the Nest guide's files, in the two kinds of application
 * `nest new` makes: Nest 12 as an ES module with TypeScript 6 (Nest CLI 12.0.8), and Nest 11 as
 * CommonJS with TypeScript 5 (Nest CLI 11.0.13). Each fixture (`test/fixtures/nest12-esm`,
 * `test/fixtures/nest11-cjs`) is that output trimmed to what builds and runs it (`nest build` is
 * `tsc -p tsconfig.build.json`; no linter, test runner or CLI), with the guide's tools added; the
 * Nest 11 one takes the Nest 12 one's sources without the `.js` of their relative imports, as
 * `nest new` 11 writes them. Both are npm workspaces of the repository, so `npm install` fetches
 * their packages and package-lock.json pins them: here each is copied to a scratch folder and
 * installed from the packed tarball with the README's line, offline (see packed-project.ts), so
 * a peer range that refuses either Nest fails the install as it would for a user. One install and
 * one running application per fixture serve all its tests.
 */

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures');
const TIMEOUT = { timeout: 600_000 };

/** The install line of the README's NestJS section, as a newcomer copies it. */
function readmeInstallLine(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## NestJS'));
  const line = /^npm install toolwright .*$/m.exec(section.slice(0, section.indexOf('\n## ', 1)))?.[0];
  assert.ok(line, "the README's NestJS section has an `npm install toolwright ...` line");
  return line;
}

/** Every file under `folder`, relative to it (node_modules and dist left out). */
function filesOf(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)))
    .filter((path) => !/^(node_modules|dist)\//.test(path));
}

/**
 * Writes the fixture `name` into `app`: its own files, and for Nest 11 the Nest 12 sources it
 * lacks, as CommonJS `nest new` writes them.
 */
function writeFixture(name: 'nest12-esm' | 'nest11-cjs', app: string): void {
  mkdirSync(app, { recursive: true });
  for (const file of filesOf(join(FIXTURES, name))) cpSync(join(FIXTURES, name, file), join(app, file));
  if (name !== 'nest11-cjs') return;
  const own = new Set(filesOf(join(FIXTURES, name)));
  for (const file of filesOf(join(FIXTURES, 'nest12-esm')).filter((f) => f.startsWith('src/') && !own.has(f))) {
    const source = readFileSync(join(FIXTURES, 'nest12-esm', file), 'utf8');
    mkdirSync(dirname(join(app, file)), { recursive: true });
    writeFileSync(join(app, file), source.replace(/(from '\.{1,2}\/[^']*)\.js'/g, "$1'"));
  }
}

/** A fixture application started with `node dist/main.js`, and the endpoint its start log named. */
interface Running {
  readonly child: ChildProcess;
  readonly endpoint: URL;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
}

/** Starts the built application on a free port; resolves once Nest logged the MCP endpoint (60 s at most). */
function start(app: string, env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: app,
    env: { ...env, PORT: '0', API_KEY: 'secret', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no MCP endpoint in the start log within 60 s:\n${stdout}\n${stderr}`));
    }, 60_000);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /\[ToolwrightModule\] MCP endpoint (http:\/\/\S+) serves 1 tool: find_order\n/.exec(stdout);
      if (match !== null) {
        clearTimeout(timer);
        resolve({ child, endpoint: new URL(match[1]!), exited, stdout: () => stdout });
      }
    });
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`the application exited (${JSON.stringify(exit)}):\n${stdout}\n${stderr}`));
    });
  });
}

const FIND_ORDER = {
  name: 'find_order',
  description: 'Look an order up by its id',
  inputSchema: {
    type: 'object',
    properties: { id: { type: 'string' } },
    required: ['id'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  _meta: { 'io.github.christopherdavenport.agenttool/tool': { replay: true, readOnly: true } },
};

const text = (value: string, isError = false) =>
  isError ? { content: [{ type: 'text', text: value }], isError: true } : { content: [{ type: 'text', text: value }] };

let project: PackedProject;
before(async () => {
  project = await packedProject('toolwright-nest-fixtures-');
});
after(() => project?.close());

for (const fixture of [
  { name: 'nest12-esm', nest: '12.5.1', typescript: /^Version 6\.0\./, module: 'module' },
  { name: 'nest11-cjs', nest: '11.2.10', typescript: /^Version 5\.9\./, module: undefined },
] as const) {
  describe(`the README's NestJS steps in a ${fixture.name} application`, TIMEOUT, () => {
    const app = () => join(project.work, fixture.name);
    let running: Running | undefined;

    before(async () => {
      writeFixture(fixture.name, app());
      const install = readmeInstallLine().replace('npm install toolwright ', `npm install ${project.tarball} `);
      const installed = await project.sh(`npm install && ${install}`, app(), 400_000);
      assert.equal(installed.code, 0, installed.stdout + installed.stderr);
      const built = await project.sh('npx tsc -v && npx tsc -p tsconfig.build.json', app(), 200_000);
      assert.equal(built.code, 0, built.stdout + built.stderr);
      assert.match(built.stdout, fixture.typescript);
      running = await start(app(), project.env);
    });

    after(async () => {
      if (running !== undefined && running.child.exitCode === null && running.child.signalCode === null)
        running.child.kill('SIGKILL');
    });

    it(`installs Nest ${fixture.nest} beside the packed toolwright, no peer refused`, () => {
      const pkg = JSON.parse(readFileSync(join(app(), 'package.json'), 'utf8')) as Record<string, unknown>;
      assert.equal(pkg.type, fixture.module);
      for (const name of ['common', 'core', 'platform-express']) {
        const installed = JSON.parse(
          readFileSync(join(app(), 'node_modules', '@nestjs', name, 'package.json'), 'utf8'),
        ) as { version: string };
        assert.equal(installed.version, fixture.nest, `@nestjs/${name}`);
      }
      assert.ok((pkg.dependencies as Record<string, string>).toolwright?.startsWith('file:'));
    });

    it('serves the tool behind its guard to 2.x and 1.x clients; the app keeps its own routes', async () => {
      const endpoint = running!.endpoint;
      assert.equal(endpoint.pathname, '/mcp');
      const v2 = new ClientV2({ name: 'fixture-test', version: '1.0.0' });
      await v2.connect(new HttpV2(endpoint, { requestInit: { headers: { 'x-api-key': 'secret' } } }));
      const v1 = new ClientV1({ name: 'fixture-test', version: '1.0.0' });
      await v1.connect(new HttpV1(endpoint));
      try {
        assert.deepEqual((await v2.listTools()).tools, [FIND_ORDER]);
        assert.deepEqual(await v2.callTool({ name: 'find_order', arguments: { id: 'A-1' } }), text('A-1: shipped'));
        assert.deepEqual(
          await v2.callTool({ name: 'find_order', arguments: { id: 'B-2' } }),
          text('no order B-2', true),
        );
        assert.deepEqual(
          await v2.callTool({ name: 'find_order', arguments: { id: 7 } }),
          text('invalid arguments: /id: must be string', true),
        );
        // The 1.x client (2025-11-25 era) sends no key: the guard refuses.
        assert.deepEqual((await v1.listTools()).tools, [FIND_ORDER]);
        assert.deepEqual(
          await v1.callTool({ name: 'find_order', arguments: { id: 'A-1' } }),
          text('Forbidden resource', true),
        );
      } finally {
        await v2.close();
        await v1.close();
      }
      const hello = await fetch(new URL('/', endpoint));
      assert.equal(await hello.text(), 'Hello World!');
    });

    it('shuts down on SIGTERM (enableShutdownHooks: Nest closes, then ends by the signal), logging no error', async () => {
      running!.child.kill('SIGTERM');
      assert.deepEqual(await running!.exited, { code: null, signal: 'SIGTERM' });
      assert.doesNotMatch(running!.stdout(), /ERROR/);
    });
  });
}
