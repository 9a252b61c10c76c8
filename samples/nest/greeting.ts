import { Injectable, Module } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import { Description, ReadOnly, Tool } from 'toolwright';

/** An ordinary Nest service the greet tool gets through constructor injection. */
@Injectable()
export class GreetingService {
  greet(name: string): string {
    return `Hello, ${name}!`;
  }
}

export class GreetArgs {
  @Description('Who to greet')
  @IsString()
  @MaxLength(100)
  name!: string;
}

@Injectable()
@Tool({ description: 'Greet someone', args: GreetArgs })
@ReadOnly()
export class GreetTool {
  constructor(private readonly greetings: GreetingService) {}

  execute(args: GreetArgs): string {
    return this.greetings.greet(args.name);
  }
}

@Module({ providers: [GreetingService, GreetTool] })
export class GreetingModule {}
