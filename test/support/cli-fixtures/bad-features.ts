// CLI fixture: a "resources" export that is a lone class.
import { StaticResource } from 'toolwright';

@StaticResource({ uri: 'notes://today' })
export class TodayNotes {
  read(): string {
    return '# Today';
  }
}

export const resources = TodayNotes;
