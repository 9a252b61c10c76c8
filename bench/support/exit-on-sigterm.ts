/**
 * Preloaded (`node --import`) into a server child that `bench/profile.ts` profiles: SIGTERM ends
 * the process through `process.exit`, so that `--cpu-prof` writes its profile (a process killed by
 * a signal's default action writes none).
 */
process.on('SIGTERM', () => process.exit(0));
