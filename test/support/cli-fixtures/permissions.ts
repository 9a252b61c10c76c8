// CLI fixture: a tool that needs `write` on a note, and a `policy` export (createPolicy options)
// that allows writing under notes/ and leaves everything else to the user.
import { IsString } from 'class-validator';
import { Requires, Tool } from 'toolwright';

class NoteArgs {
  @IsString()
  name!: string;
}

@Tool({ name: 'write_note', description: 'Writes a note', args: NoteArgs })
@Requires({ capabilities: ['write'], subject: (args: NoteArgs) => `notes/${args.name}`, reason: 'save the note' })
export class WriteNote {
  async execute(args: NoteArgs): Promise<string> {
    return `wrote notes/${args.name}`;
  }
}

export const tools = [WriteNote];

export const policy = {
  rules: [{ effect: 'allow', tool: 'write_note', subject: 'notes/ok*', capabilities: ['write'] }],
};
