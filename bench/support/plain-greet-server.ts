/**
 * The benchmark's plain toolwright side: the NestJS sample's `greet` tool and its service,
 * copied without Nest's `@Injectable` (so this process never loads Nest), the service made by
 * hand, compiled and served over stdio by `serveStdio`.
 */
import { IsString, MaxLength } from 'class-validator';
import { compile, Description, ReadOnly, serveStdio, Tool } from 'toolwright';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();

class GreetingService {
  greet(name: string): string {
    return `Hello, ${name}!`;
  }
}

class GreetArgs {
  @Description('Who to greet')
  @IsString()
  @MaxLength(100)
  name!: string;
}

@Tool({ description: 'Greet someone', args: GreetArgs })
@ReadOnly()
class GreetTool {
  constructor(private readonly greetings: GreetingService) {}

  execute(args: GreetArgs): string {
    return this.greetings.greet(args.name);
  }
}

serveStdio(
  { name: 'plain-greet', version: '1.0.0' },
  compile([GreetTool], { resolve: () => new GreetTool(new GreetingService()) }),
).catch((error: unknown) => {
  process.stderr.write(`plain-greet: ${String(error)}\n`);
  process.exit(1);
});
