/**
 * Lets a benchmark read a server child's own CPU time without touching its MCP surface: on
 * SIGUSR2 the process writes one line `cpu <user µs> <system µs>` to stderr. Only bench servers
 * import this; it never writes to stdout (which carries MCP messages).
 */
export function reportCpuOnSignal(): void {
  process.on('SIGUSR2', () => {
    const { user, system } = process.cpuUsage();
    process.stderr.write(`cpu ${user} ${system}\n`);
  });
}
