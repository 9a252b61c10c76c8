/**
 * Lets a benchmark read a server child's own CPU time and memory without touching its MCP
 * surface: on SIGUSR2 the process writes one line
 * `cpu <user µs> <system µs> <peak RSS KiB> <RSS KiB> <heap used KiB> <monotonic µs>` to stderr
 * (the last on the clock CPU profiles use, so a profile can be cut to a window). When the
 * process runs with `--expose-gc`, it collects garbage first (twice), so that the RSS and heap
 * figures are what is still held; CPU is read before that. Only bench servers import this; it
 * never writes to stdout (which carries MCP messages).
 */
export function reportCpuOnSignal(): void {
  process.on('SIGUSR2', () => {
    const { user, system } = process.cpuUsage();
    const now = process.hrtime.bigint() / 1000n;
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    const memory = process.memoryUsage();
    process.stderr.write(
      `cpu ${user} ${system} ${process.resourceUsage().maxRSS} ${Math.round(memory.rss / 1024)} ${Math.round(memory.heapUsed / 1024)} ${now}\n`,
    );
  });
}

/** One `cpu ...` report read: CPU time (user + system) in µs, peak and current RSS and heap used in KiB. */
export interface UsageReport {
  readonly cpuMicros: number;
  readonly maxRssKiB: number;
  readonly rssKiB: number;
  readonly heapUsedKiB: number;
  /** When the report was made, in µs on the monotonic clock. */
  readonly atMicros: number;
}

/** Reads one `cpu <user> <system> <peak RSS> <RSS> <heap used> <at>` line; a missing field reads as 0. */
export function usageOfLine(line: string): UsageReport {
  const [, user, system, maxRss, rss, heap, at] = line.split(' ');
  return {
    cpuMicros: Number(user) + Number(system),
    maxRssKiB: Number(maxRss ?? 0),
    rssKiB: Number(rss ?? 0),
    heapUsedKiB: Number(heap ?? 0),
    atMicros: Number(at ?? 0),
  };
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
