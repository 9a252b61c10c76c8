// CLI fixture: a prompt class with a blank description.
import { Prompt } from 'toolwright';

@Prompt({ description: ' ' })
export class BlankPrompt {
  messages(): string {
    return '';
  }
}
