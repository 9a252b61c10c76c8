import { IsInt, IsString, Min } from 'class-validator';
import {
  Complete,
  Description,
  Prompt,
  ResourceTemplate,
  StaticResource,
  Tool,
  userMessage,
  type CallContext,
  type ResourceContext,
} from '../../src/index.js';
import { ServerChanges } from '../../src/mcp/index.js';

/*
 * A module `toolwright serve` serves in the feature tests of both eras and both transports: a
 * resource with a fixed URI, a template, two prompts (one asks the user first) and a tool that
 * announces a change of a resource on the module's `changes`.
 */

export const changes = new ServerChanges();

export class TouchArgs {
  @IsString()
  uri!: string;
}

@Tool({ name: 'touch', description: 'Announces that a resource changed', args: TouchArgs })
export class Touch {
  execute(args: TouchArgs): string {
    changes.resourceUpdated(args.uri);
    return `touched ${args.uri}`;
  }
}

@StaticResource({ uri: 'notes://today', description: "Today's notes", mimeType: 'text/markdown' })
export class TodayNotes {
  read(): string {
    return '# Today\n- write tests';
  }
}

export class UserVars {
  @IsInt()
  @Min(1)
  id!: number;
}

@ResourceTemplate({ uriTemplate: 'users://{id}/profile', mimeType: 'application/json', args: UserVars })
export class UserProfile {
  read(vars: UserVars, ctx: ResourceContext): string {
    return JSON.stringify({ id: vars.id, uri: ctx.uri });
  }

  @Complete('id')
  ids(value: string): string[] {
    return ['1', '2', '10'].filter((id) => id.startsWith(value));
  }
}

export class GreetArgs {
  @Description('Whom to greet')
  @IsString()
  name!: string;
}

@Prompt({ name: 'greet', description: 'Greets someone', args: GreetArgs })
export class Greet {
  messages(args: GreetArgs): string {
    return `Say hello to ${args.name}.`;
  }

  @Complete('name')
  names(value: string): string[] {
    return ['Ada', 'Alan', 'Grace'].filter((name) => name.toLowerCase().startsWith(value.toLowerCase()));
  }
}

@Prompt({ name: 'interview', description: 'Asks the user for a topic first' })
export class Interview {
  async messages(_args: unknown, ctx: CallContext) {
    const answer = await ctx.elicit({
      key: 'topic',
      message: 'Which topic?',
      schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    });
    return [userMessage(`Interview about ${String(answer.content?.answer ?? answer.action)}.`)];
  }
}

export const tools = [Touch];
export const resources = [TodayNotes, UserProfile];
export const prompts = [Greet, Interview];
