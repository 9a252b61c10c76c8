// The NestJS sample: `npm run build && node dist/samples/nest/main.js [--stdio] [--fastify] [--port N]`.
// Over HTTP it prints `listening on http://127.0.0.1:<port>/mcp` to stderr once it listens.
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { StderrLogger, ToolwrightServer } from 'toolwright/nest';
import { AppModule } from './app.module.js';

const argv = process.argv.slice(2);
const flag = (name: string): boolean => argv.includes(name);
const portIndex = argv.indexOf('--port');
const port = portIndex === -1 ? 3000 : Number(argv[portIndex + 1]);

async function main(): Promise<void> {
  if (flag('--stdio')) {
    // stdout carries MCP messages only: log to stderr.
    const app = await NestFactory.createApplicationContext(AppModule.serving('stdio'), { logger: new StderrLogger() });
    app.enableShutdownHooks();
    await app.get(ToolwrightServer).closed;
    await app.close();
    return;
  }
  const logger = new StderrLogger();
  const app = flag('--fastify')
    ? await NestFactory.create(AppModule.serving('http'), new FastifyAdapter(), { logger })
    : await NestFactory.create(AppModule.serving('http'), { logger });
  app.enableShutdownHooks();
  await app.listen(port, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  process.stderr.write(`listening on http://127.0.0.1:${address.port}/mcp\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
