// vitest 3 configuration for the runner check (test/schema-runners.test.ts): only the
// *.vitest.ts files of this folder, no watch, no cache outside the system's temp folder.
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default {
  test: { include: ['*.vitest.ts'], watch: false, testTimeout: 60_000 },
  cacheDir: join(tmpdir(), 'toolwright-vitest-cache'),
};
