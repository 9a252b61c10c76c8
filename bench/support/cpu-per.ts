/** CPU microseconds (user + system, this process) per call of `work` over `count` sequential calls. */
export async function cpuPer<C>(client: C, work: (client: C) => Promise<unknown>, count: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await work(client);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}
