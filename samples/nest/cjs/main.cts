// The CommonJS NestJS sample: `npm run build && node dist/samples/nest/cjs/main.cjs [--stdio] [--fastify] [--port N]`.
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { StderrLogger, ToolwrightServer } from 'toolwright/nest';
import { AppModule } from './app.cjs';

const argv = process.argv.slice(2);
const portIndex = argv.indexOf('--port');
const port = portIndex === -1 ? 3000 : Number(argv[portIndex + 1]);

async function main(): Promise<void> {
  const logger = new StderrLogger();
  if (argv.includes('--stdio')) {
    const app = await NestFactory.createApplicationContext(AppModule.serving('stdio'), { logger });
    app.enableShutdownHooks();
    await app.get(ToolwrightServer).closed;
    await app.close();
    return;
  }
  const app = argv.includes('--fastify')
    ? await NestFactory.create(AppModule.serving('http'), new FastifyAdapter(), { logger })
    : await NestFactory.create(AppModule.serving('http'), { logger });
  app.enableShutdownHooks();
  await app.listen(port, '127.0.0.1');
  process.stderr.write(
    `listening on http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
