/**
 * The edge bench's floor for a decorated toolwright server's cold start: what such a process
 * loads and does whatever serves it, with nothing of toolwright's. It loads what a decorated
 * tool's own file brings (`reflect-metadata`, class-validator, one class-validator DTO class per
 * tool, declared like the one in `echo6-toolwright-tool.ts` without toolwright's decorators) and
 * serves the tools from the SDK 2.x low-level `Server` with hand-written JSON Schemas (no zod, no
 * schema generation, no validation). The difference between this and SDK 2.x `McpServer` + zod is
 * the tool author's dependencies against zod's; the difference between this and the decorated
 * toolwright server is toolwright's own work. Serves stdio only. Reports CPU time and peak RSS on
 * SIGUSR2.
 */
import 'reflect-metadata';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { DESCRIPTION, echo6, echo6Schema, serverArgs, toolName, type Echo6Input } from './echo6-args.js';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();
const { toolCount } = serverArgs();

/** Declares one DTO class with echo6's class-validator rules: each call makes a new class. */
function echo6Dto(): Function {
  class Echo6Args {
    @IsString() @MaxLength(10_000) text!: string;
    @IsOptional() @IsInt() @Min(1) @Max(5) count?: number;
    @IsOptional() @IsString() @MaxLength(10) separator?: string;
    @IsOptional() @IsString() @MaxLength(100) prefix?: string;
    @IsOptional() @IsString() @MaxLength(100) suffix?: string;
    @IsOptional() @IsBoolean() upper?: boolean;
  }
  return Echo6Args;
}

const dtos = Array.from({ length: toolCount }, echo6Dto);
const tools = dtos.map((_dto, index) => ({
  name: toolName(index),
  description: DESCRIPTION,
  inputSchema: echo6Schema(),
  annotations: { readOnlyHint: true, idempotentHint: true },
}));
const server = new Server({ name: 'sdk2-echo6-floor', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', () => ({ tools }));
server.setRequestHandler('tools/call', (request) => ({
  content: [{ type: 'text', text: echo6((request.params.arguments ?? {}) as unknown as Echo6Input) }],
}));
server.connect(new StdioServerTransport()).catch((error: unknown) => {
  process.stderr.write(`sdk2-echo6-floor: ${String(error)}\n`);
  process.exit(1);
});
