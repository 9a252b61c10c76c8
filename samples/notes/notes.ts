import { IsIn, IsString, MaxLength } from 'class-validator';
import {
  Complete,
  Description,
  Prompt,
  ResourceNotFoundError,
  ResourceTemplate,
  StaticResource,
  userMessage,
  type ResourceContext,
} from 'toolwright';

const NOTES = new Map([
  ['groceries', 'milk, eggs, coffee'],
  ['ideas', 'serve the notes over MCP'],
]);

const named = (typed: string): string[] => [...NOTES.keys()].filter((name) => name.startsWith(typed));

@StaticResource({ uri: 'notes://index', description: 'The names of every note', mimeType: 'text/plain' })
export class NoteIndex {
  read(): string {
    return [...NOTES.keys()].join('\n');
  }
}

export class NoteVars {
  @Description('Which note')
  @IsString()
  @MaxLength(40)
  name!: string;
}

@ResourceTemplate({ uriTemplate: 'notes://{name}', description: 'One note', mimeType: 'text/plain', args: NoteVars })
export class Note {
  read(vars: NoteVars, ctx: ResourceContext): string {
    const text = NOTES.get(vars.name);
    if (text === undefined) throw new ResourceNotFoundError(ctx.uri);
    return text;
  }

  @Complete('name')
  names(typed: string): string[] {
    return named(typed);
  }
}

export class SummaryArgs {
  @Description('Which note to summarise')
  @IsString()
  name!: string;

  @Description('How long the summary is')
  @IsIn(['short', 'detailed'])
  style!: string;
}

@Prompt({ description: 'Summarise a note', args: SummaryArgs })
export class SummariseNotePrompt {
  messages(args: SummaryArgs) {
    return [
      userMessage(`Write a ${args.style} summary of "${args.name}": ${NOTES.get(args.name) ?? '(no such note)'}`),
    ];
  }

  @Complete('name')
  names(typed: string): string[] {
    return named(typed);
  }
}
