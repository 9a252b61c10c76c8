/**
 * Runs every benchmark next to this file (`*.bench.js` in dist/bench), one after another in name
 * order, each through its exported `run()`. A bench that fails is reported and the rest still
 * run; the exit code is then 1.
 *
 *   npm run bench        (builds, then node dist/bench/main.js)
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

async function main(): Promise<void> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const benches = readdirSync(here)
    .filter((file) => file.endsWith('.bench.js'))
    .sort();
  for (const file of benches) {
    console.log(`\n=== ${file}`);
    try {
      const bench = (await import(pathToFileURL(path.join(here, file)).href)) as { run?: () => Promise<void> };
      if (typeof bench.run !== 'function') throw new Error(`${file} exports no run() function`);
      await bench.run();
    } catch (err) {
      console.error(`${file} failed:`, err);
      process.exitCode = 1;
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
