// Mutation testing (`npm run mutate`, `npm run mutate:<module>`): StrykerJS 9 mutates the compiled
// JavaScript of one module (`dist/src/...`) and runs the compiled node:test files that exercise it
// through its TAP runner. Each test file is one process, so "per test" coverage is per test file:
// a mutant runs only the files that reached it. TypeScript 7 has no Stryker checker, so `tsc`
// builds first. Code reached only in child processes (stdio, the CLI) cannot be killed here.
//
// One worker only (the machine is shared), incremental (`reports/stryker-incremental-<module>.json`,
// not committed) so a rerun after a new test reruns only what changed. docs/mutation.md has the
// scores and the explained survivors.

/**
 * The modules measured, each with the compiled files it mutates and the test files that pin it
 * (`tap.testFiles` are plain globs: no `!` exclusions, so the lists name files; suites that test
 * through child processes or the network only, like core-parity's stdio and HTTP legs, are left out).
 */
export const modules = {
  permissions: {
    mutate: ['dist/src/runtime/permissions/*.js', '!dist/src/runtime/permissions/index.js'],
    // The in-process permission suites; the ones over MCP (permissions-mcp, robust-decision-scope)
    // and through the Executor add little here and cost seconds per mutant.
    testFiles: [
      'dist/test/permissions-helpers.test.js',
      'dist/test/permissions-policy-rules.test.js',
      'dist/test/permissions-run.test.js',
      'dist/test/permissions-stores.test.js',
      'dist/test/permissions-corners.test.js',
      'dist/test/permissions-policy.test.js',
      'dist/test/permissions-wrapper.test.js',
      'dist/test/permissions-gaps.test.js',
      'dist/test/core-permissions-gaps.test.js',
      'dist/test/permissions-requirements-args.test.js',
      'dist/test/permissions-compiled.test.js',
      'dist/test/permissions-paths.test.js',
    ],
  },
  call: {
    mutate: ['dist/src/runtime/call/*.js', '!dist/src/runtime/call/index.js'],
    // The call core's own suites; every host suite reaches it too, at seconds per mutant.
    testFiles: [
      'dist/test/core-call-*.test.js',
      'dist/test/core-order.test.js',
      'dist/test/core-output.test.js',
      'dist/test/server-content-gaps.test.js',
    ],
  },
  validation: {
    mutate: ['dist/src/compiler/validation/*.js', '!dist/src/compiler/validation/index.js'],
    testFiles: [
      'dist/test/validation-*.test.js',
      'dist/test/core-nulls.test.js',
      'dist/test/core-validator.test.js',
      'dist/test/compile-args.test.js',
      // @MapOf and @UnionOf end to end (the DTO builder's shapes, the anyOf/oneOf folding). The
      // other suites that reach this module (speed-lazy-compile, schema-*, compile-*) are left
      // out: the validation-* files pin what they add, and every file here runs for every
      // module-level mutant and every survivor.
      'dist/test/schema-shapes.test.js',
      // When the null plan and the DTO builder are made (on the first valid call, once), and the
      // repeat checks of isPlainSchema on lists of every length.
      'dist/test/speed-compile-deferred.test.js',
      'dist/test/speed-compile-plain.test.js',
    ],
  },
  executor: {
    mutate: [
      'dist/src/runtime/executor/*.js',
      '!dist/src/runtime/executor/index.js',
      'dist/src/runtime/scheduler/*.js',
      '!dist/src/runtime/scheduler/index.js',
    ],
    testFiles: [
      'dist/test/executor-*.test.js',
      'dist/test/sched-executor.test.js',
      'dist/test/sched-property.test.js',
      'dist/test/sched-scheduler.test.js',
      'dist/test/sched-structures.test.js',
      'dist/test/permissions-executor.test.js',
      'dist/test/sched-corners.test.js',
    ],
  },
};

/**
 * The Stryker options for one module of `modules` (or every module at once for `all`). Throws a
 * TypeError naming the known modules when the name is not one of them.
 */
export function mutationConfig(name) {
  const picked = name === 'all' ? Object.values(modules) : [modules[name]];
  if (picked[0] === undefined) {
    throw new TypeError(`unknown mutation module "${name}"; known: all, ${Object.keys(modules).join(', ')}`);
  }
  return {
    testRunner: 'tap',
    plugins: ['@stryker-mutator/tap-runner'],
    // Under the condition `npm test` uses, so a test that imports `toolwright` by name loads the
    // (mutated) unbundled modules, never the bundle.
    tap: {
      testFiles: [...new Set(picked.flatMap((m) => m.testFiles))],
      nodeArgs: ['--conditions=toolwright-unbundled', '--test-reporter=tap', '-r', '{{hookFile}}', '{{testFile}}'],
    },
    coverageAnalysis: 'perTest',
    mutate: picked.flatMap((m) => m.mutate),
    ignorePatterns: ['.conformance', 'reports', '.stryker-tmp', '.bench-baseline'],
    reporters: ['clear-text', 'progress', 'json', 'html'],
    clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    incremental: true,
    incrementalFile: `reports/stryker-incremental-${name}.json`,
    // Never more than one worker: the machine is shared.
    concurrency: 1,
    timeoutMS: 20000,
    tempDirName: '.stryker-tmp',
    // Stryker rewrites tsconfig.json in its sandbox through the TypeScript JS API, which TypeScript 7
    // (native) does not have; we mutate the compiled JavaScript, so point it at no tsconfig at all.
    tsconfigFile: 'stryker-no-tsconfig.json',
    cleanTempDir: 'always',
  };
}

export default mutationConfig(process.env.TOOLWRIGHT_MUTATE ?? 'all');
