/**
 * The benchmark's toolwright/nest side: the NestJS sample's `greet` tool (a provider with an
 * injected service) in a standalone Nest application context served over stdio by
 * `ToolwrightModule`, logging to stderr only.
 */
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ToolwrightModule, ToolwrightServer } from 'toolwright/nest';
import { GreetingModule } from '../../samples/nest/greeting.js';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();

@Module({
  imports: [GreetingModule, ToolwrightModule.forRoot({ name: 'nest-greet', version: '1.0.0', transport: 'stdio' })],
})
class BenchModule {}

async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(BenchModule, { logger: false });
  await app.get(ToolwrightServer).closed;
  await app.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`nest-greet: ${String(error)}\n`);
  process.exit(1);
});
