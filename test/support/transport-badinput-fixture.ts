// A stdio MCP server of compiled, decorated toolwright tools for the bad-input tests, run as a
// child process with `process.execPath` (see transport-child.ts). It serves with `serveStdio` and
// its defaults (4 MiB line limit) unless MAX_LINE_BYTES is set, except that the default output
// bound is off (`maxOutputChars: Infinity`): the echo of a 1 MiB argument comes back whole. Probe
// events go to stderr as `probe: <event>` lines.
//
// Tools:
// - `echo {text: string, count?: integer 1..5}` answers `text` repeated `count` times, joined
//   by single spaces.
// - `slow {ms: number 0..60000}` reports `slow started <ms>`, waits `ms` milliseconds or until
//   its signal aborts, then answers `slept <ms> ms`; on abort it reports `slow aborted <ms>` and
//   throws `slow aborted`.
// - `sum {values: number[]}` answers the sum of `values`.
// - `boom` (no arguments) always throws `boom: the tool failed on purpose`.
import 'reflect-metadata';
import { IsArray, IsInt, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';
import { Args, Description, Tool, compile, serveStdio, type CallContext } from '../../src/index.js';
import { probe } from './probe.js';

// Not the conformance sample's EchoArgs: that one caps `text` at 10,000 characters, and the
// bad-input rows send 1 MiB and 5 MiB strings that must reach the tool.
class EchoArgs {
  @Description('The text to echo back')
  @IsString()
  text!: string;

  @Description('How many times to repeat it (default 1)')
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5)
  count?: number;
}

@Tool({ name: 'echo', description: 'Echoes the text back, repeated count times' })
class Echo {
  async execute(@Args() args: EchoArgs): Promise<string> {
    return Array.from({ length: args.count ?? 1 }, () => args.text).join(' ');
  }
}

class SlowArgs {
  @Description('How long to wait, in milliseconds')
  @IsNumber()
  @Min(0)
  @Max(60_000)
  ms!: number;
}

@Tool({ name: 'slow', description: 'Waits ms milliseconds unless cancelled' })
class Slow {
  async execute(@Args() args: SlowArgs, ctx: CallContext): Promise<string> {
    probe(`slow started ${args.ms}`);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        ctx.signal.removeEventListener('abort', onAbort);
        resolve();
      }, args.ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        probe(`slow aborted ${args.ms}`);
        reject(new Error('slow aborted'));
      };
      if (ctx.signal.aborted) onAbort();
      else ctx.signal.addEventListener('abort', onAbort, { once: true });
    });
    return `slept ${args.ms} ms`;
  }
}

class SumArgs {
  @Description('The numbers to add up')
  @IsArray()
  @IsNumber({}, { each: true })
  values!: number[];
}

@Tool({ name: 'sum', description: 'Adds up the numbers' })
class Sum {
  async execute(@Args() args: SumArgs): Promise<string> {
    return String(args.values.reduce((total, value) => total + value, 0));
  }
}

@Tool({ name: 'boom', description: 'Always throws', args: undefined })
class Boom {
  async execute(): Promise<string> {
    throw new Error('boom: the tool failed on purpose');
  }
}

const maxLineBytes = process.env['MAX_LINE_BYTES'] === undefined ? undefined : Number(process.env['MAX_LINE_BYTES']);

serveStdio({ name: 'badinput-fixture', version: '1.0.0' }, compile([Echo, Slow, Sum, Boom]), {
  maxOutputChars: Infinity,
  ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
}).then(
  () => probe('ready'),
  (error: unknown) => {
    process.stderr.write(`fixture failed: ${String(error)}\n`);
    process.exitCode = 2;
  },
);
