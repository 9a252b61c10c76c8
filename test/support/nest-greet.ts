import { Injectable } from '@nestjs/common';
import { IsString } from 'class-validator';
import { Tool } from '../../src/index.js';

/** An injectable service the greet tool reaches through constructor injection. */
@Injectable()
export class Greeter {
  greet(name: string): string {
    return `Hello, ${name}!`;
  }
}

export class NameArgs {
  @IsString()
  name!: string;
}

/** `greet({ name })`: `Hello, <name>!`, from the injected `Greeter`. List both in a module's providers. */
@Injectable()
@Tool({ name: 'greet', description: 'Greet someone', args: NameArgs })
export class GreetTool {
  constructor(private readonly greeter: Greeter) {}
  execute(args: NameArgs): string {
    return this.greeter.greet(args.name);
  }
}
