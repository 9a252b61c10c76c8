// CLI fixture: a @Tool class without execute(), which compile rejects.
import { Tool } from 'toolwright';

@Tool({ name: 'broken', description: 'Has no execute method.' })
export class Broken {}
