/**
 * Lets a benchmark read a server child's own CPU time and peak memory without touching its MCP
 * surface: on SIGUSR2 the process writes one line `cpu <user µs> <system µs> <peak RSS KiB>` to
 * stderr. Only bench servers import this; it never writes to stdout (which carries MCP messages).
 */
export function reportCpuOnSignal(): void {
  process.on('SIGUSR2', () => {
    const { user, system } = process.cpuUsage();
    process.stderr.write(`cpu ${user} ${system} ${process.resourceUsage().maxRSS}\n`);
  });
}

/** One `cpu ...` report read: CPU time (user + system) in µs, and peak RSS in KiB. */
export interface UsageReport {
  readonly cpuMicros: number;
  readonly maxRssKiB: number;
}

/** Reads the last `cpu <user> <system> <peak RSS KiB>` line; a missing RSS field reads as 0. */
export function usageOfLine(line: string): UsageReport {
  const [, user, system, rss] = line.split(' ');
  return { cpuMicros: Number(user) + Number(system), maxRssKiB: Number(rss ?? 0) };
}

/** How long `requestCpuReport` waits for a child's report before it fails. */
const CPU_REPORT_TIMEOUT_MS = 5_000;

/**
 * Asks the child `pid` (a bench server that called `reportCpuOnSignal`) for its CPU time and
 * resolves with user + system µs, read from the next `cpu ...` line pushed onto `cpuLines` (the
 * caller collects them from the child's stderr). Throws, naming `label`, when the child is not
 * running or sends no report within 5 s.
 */
export async function requestCpuReport(
  label: string,
  pid: number | null,
  cpuLines: readonly string[],
): Promise<number> {
  if (pid === null) throw new Error(`${label}: the server process is not running`);
  const before = cpuLines.length;
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + CPU_REPORT_TIMEOUT_MS;
  while (cpuLines.length === before) {
    if (Date.now() > deadline) throw new Error(`${label}: no CPU report within ${CPU_REPORT_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return usageOfLine(cpuLines[cpuLines.length - 1]!).cpuMicros;
}

/** As `requestCpuReport`, with the child's peak RSS too (see `UsageReport`). */
export async function requestUsageReport(
  label: string,
  pid: number | null,
  cpuLines: readonly string[],
): Promise<UsageReport> {
  await requestCpuReport(label, pid, cpuLines);
  return usageOfLine(cpuLines[cpuLines.length - 1]!);
}
