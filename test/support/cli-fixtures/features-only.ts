// CLI fixture: a module that serves a resource and a prompt and no tool (its decorated classes).
import { IsString } from 'class-validator';
import { Description, Prompt, StaticResource } from 'toolwright';

@StaticResource({ uri: 'notes://today', title: 'Notes', mimeType: 'text/markdown' })
export class TodayNotes {
  read(): string {
    return '# Today';
  }
}

export class SummaryArgs {
  @Description('What to summarise')
  @IsString()
  topic!: string;
}

@Prompt({ name: 'summary', description: 'Summarises a topic', args: SummaryArgs })
export class Summary {
  messages(args: SummaryArgs): string {
    return `Summarise ${args.topic}.`;
  }
}
