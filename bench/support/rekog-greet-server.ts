/**
 * The benchmark's `@rekog/mcp-nest` 2.x side: the same `greet` tool (a Nest service injected into
 * an `@McpController`, arguments checked by a zod schema) served over stdio by rekog's
 * `McpStrategy` in a Nest microservice, as its README shows, logging off.
 */
import { Controller, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { McpController, McpStrategy, StdioTransport, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();

@Injectable()
class GreetingService {
  greet(name: string): string {
    return `Hello, ${name}!`;
  }
}

@McpController()
@Controller()
class GreetController {
  constructor(private readonly greetings: GreetingService) {}

  @Tool({
    name: 'greet',
    description: 'Greet someone',
    parameters: z.object({ name: z.string().max(100).describe('Who to greet') }),
    annotations: { readOnlyHint: true },
  })
  greet(@Payload() args: { name: string }): { content: { type: 'text'; text: string }[] } {
    return { content: [{ type: 'text', text: this.greetings.greet(args.name) }] };
  }
}

@Module({ controllers: [GreetController], providers: [GreetingService] })
class BenchModule {}

async function main(): Promise<void> {
  const strategy = new McpStrategy({ name: 'rekog-greet', version: '1.0.0', transports: [new StdioTransport()] });
  const app = await NestFactory.createMicroservice(BenchModule, { strategy, logger: false });
  await app.listen();
}

main().catch((error: unknown) => {
  process.stderr.write(`rekog-greet: ${String(error)}\n`);
  process.exit(1);
});
