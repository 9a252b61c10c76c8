#!/usr/bin/env node
// Holds toolwright to the MCP conformance suite: @modelcontextprotocol/conformance 0.1.16 for the
// 2025 revisions, or with `--spec-version 2026-07-28` the 0.2.0-alpha.11 suite (installed under
// the npm alias mcp-conformance-2026) for the 2026-07-28 revision.
//
//   node scripts/conformance.mjs [--spec-version 2026-07-28 | --tasks] [--dist DIR] [--timeout SECONDS] [-- <extra conformance args>]
//
// It starts the conformance sample server with the toolwright CLI over streamable HTTP on
// 127.0.0.1 and a free port (`toolwright serve DIR/samples/conformance/index.js --http
// 127.0.0.1:0`, DIR defaults to `dist`, so build first), waits for the URL the CLI prints, runs
// `conformance server --url URL --suite all --expected-failures
// scripts/conformance-expected-failures.yml` (2026-07-28: `--spec-version 2026-07-28` and
// scripts/conformance-expected-failures-2026.yml) through the Node 20 compat hook, stops the server
// (by its PID) and exits with the suite's exit code: 0 when every scenario passes except the
// listed expected failures (a listed scenario that starts passing also fails the run). Extra
// arguments after `--` go to the conformance CLI (e.g. `-- --scenario tools-call-error` runs
// one scenario in place of the suite). With `--tasks` it runs the 0.2.0-alpha.11 suite's ten
// `tasks-*` scenarios of the 2026-07-28 tasks extension one after the other against one server,
// each by name (`--scenario <name> --force --spec-version 2026-07-28`: `--spec-version` alone
// never selects an extension's scenarios), with scripts/conformance-expected-failures-tasks.yml,
// and exits with the first non-zero exit code of them (0 when all pass their baseline). The
// whole run is bounded: past the timeout (default 300 s) both processes are killed and it exits
// 124. It never touches node_modules.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_START_TIMEOUT_MS = 15_000;

/** The `tasks-*` scenarios of the 0.2.0-alpha.11 suite (the 2026-07-28 tasks extension), in its order. */
const TASK_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

function parseOptions(argv) {
  const options = { dist: 'dist', timeoutSeconds: 300, extra: [], specVersion: undefined, tasks: false };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === '--') {
      options.extra = argv.slice(i + 1);
      break;
    }
    if (word === '--dist' && argv[i + 1] !== undefined) options.dist = argv[++i];
    else if (word === '--spec-version' && argv[i + 1] === '2026-07-28') options.specVersion = argv[++i];
    else if (word === '--tasks') options.tasks = true;
    else if (word === '--timeout' && /^\d+$/.test(argv[i + 1] ?? '')) options.timeoutSeconds = Number(argv[++i]);
    else {
      process.stderr.write(
        `conformance: unknown or incomplete option ${JSON.stringify(word)}\nusage: node scripts/conformance.mjs [--spec-version 2026-07-28 | --tasks] [--dist DIR] [--timeout SECONDS] [-- <extra conformance args>]\n`,
      );
      process.exit(2);
    }
  }
  return options;
}

/** Starts the sample server and resolves its URL once the CLI prints it on stderr. */
function startServer(dist) {
  const cli = join(root, dist, 'src/cli/main.js');
  const sample = join(root, dist, 'samples/conformance/index.js');
  for (const file of [cli, sample]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: build first (npx tsc -p . --outDir ${dist})`);
  }
  const server = spawn(
    process.execPath,
    [cli, 'serve', sample, '--http', '127.0.0.1:0', '--name', 'toolwright-conformance'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const url = new Promise((resolveUrl, rejectUrl) => {
    let seen = '';
    const timer = setTimeout(
      () => rejectUrl(new Error(`the server printed no URL within ${SERVER_START_TIMEOUT_MS} ms:\n${seen}`)),
      SERVER_START_TIMEOUT_MS,
    );
    server.stderr.setEncoding('utf8');
    server.stderr.on('data', (chunk) => {
      seen += chunk;
      const match = /(http:\/\/[^\s]+\/mcp)\b/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    server.on('exit', (code, signal) => {
      clearTimeout(timer);
      rejectUrl(new Error(`the server exited (${signal ?? code}) before printing its URL:\n${seen}`));
    });
  });
  return { server, url };
}

function runSuite(url, extra, specVersion, expectedFailures) {
  const modern = specVersion === '2026-07-28';
  const conformance = join(
    root,
    modern
      ? 'node_modules/mcp-conformance-2026/dist/index.js'
      : 'node_modules/@modelcontextprotocol/conformance/dist/index.js',
  );
  const selection = extra.includes('--scenario') || extra.includes('--suite') ? [] : ['--suite', 'all'];
  const expected = join(
    root,
    expectedFailures ??
      (modern ? 'scripts/conformance-expected-failures-2026.yml' : 'scripts/conformance-expected-failures.yml'),
  );
  const args = [
    '--import',
    join(root, 'scripts/node20-compat.mjs'),
    conformance,
    'server',
    '--url',
    url,
    ...selection,
    ...(modern ? ['--spec-version', specVersion] : []),
    '--expected-failures',
    expected,
    ...extra,
  ];
  return spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const { server, url: urlPromise } = startServer(options.dist);
  let suite;
  const deadline = setTimeout(() => {
    process.stderr.write(`conformance: timed out after ${options.timeoutSeconds} s\n`);
    suite?.kill('SIGKILL');
    server.kill('SIGKILL');
    process.exit(124);
  }, options.timeoutSeconds * 1000);
  try {
    const url = await urlPromise;
    process.stdout.write(`conformance: toolwright sample server at ${url} (pid ${server.pid})\n`);
    const runs = options.tasks
      ? TASK_SCENARIOS.map((scenario) => ({
          extra: ['--scenario', scenario, '--force', ...options.extra],
          specVersion: '2026-07-28',
          expected: 'scripts/conformance-expected-failures-tasks.yml',
        }))
      : [{ extra: options.extra, specVersion: options.specVersion, expected: undefined }];
    let first = 0;
    for (const run of runs) {
      suite = runSuite(url, run.extra, run.specVersion, run.expected);
      const code = await new Promise((resolveCode) =>
        suite.on('exit', (exitCode, signal) => resolveCode(exitCode ?? (signal ? 1 : 0))),
      );
      if (first === 0) first = code;
    }
    process.stdout.write(`conformance: suite exited with code ${first}\n`);
    process.exitCode = first;
  } catch (error) {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    clearTimeout(deadline);
    await stopServer(server);
  }
}

/** Stops the server with SIGTERM (its graceful close), or SIGKILL if it is still up after 5 s. */
async function stopServer(server) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolveExit) => server.once('exit', resolveExit));
  server.kill('SIGTERM');
  const killer = setTimeout(() => server.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killer);
}

main();
