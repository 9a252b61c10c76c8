// Mutation testing (`npm run mutate`): StrykerJS 9 mutates the compiled JavaScript of the call
// path, permissions, the executor's planning and the validation pipeline, and runs the compiled
// node:test files through its TAP runner (each test file is a process; per-file coverage picks
// the files that can kill a mutant). TypeScript 7 has no Stryker checker, so `tsc` builds first.
// Tests that exercise code only in child processes (stdio, HTTP CLI) cannot kill mutants here.
export default {
  testRunner: 'tap',
  plugins: ['@stryker-mutator/tap-runner'],
  tap: { testFiles: ['dist/test/*.test.js', '!dist/test/conformance-suite.test.js', '!dist/test/inspector-cli.test.js'] },
  coverageAnalysis: 'perTest',
  mutate: [
    'dist/src/runtime/permissions/*.js',
    'dist/src/runtime/executor/plan.js',
    'dist/src/runtime/executor/batch.js',
    'dist/src/runtime/executor/run-call.js',
    'dist/src/runtime/call/*.js',
    'dist/src/compiler/validation/*.js',
    'dist/src/mcp/server/call.js',
    'dist/src/mcp/server/content.js',
  ],
  ignorePatterns: ['.conformance', 'reports', '.stryker-tmp'],
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  timeoutMS: 20000,
  tempDirName: '.stryker-tmp',
  // Stryker rewrites tsconfig.json in its sandbox through the TypeScript JS API, which TypeScript 7
  // (native) does not have; we mutate the compiled JavaScript, so point it at no tsconfig at all.
  tsconfigFile: 'stryker-no-tsconfig.json',
  cleanTempDir: 'always',
};
