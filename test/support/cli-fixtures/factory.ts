// CLI fixture: `tools` as an async function, building a tool whose constructor needs an argument.
import { Tool } from 'toolwright';

@Tool({ name: 'salute', description: 'Says the configured greeting.' })
export class Salute {
  constructor(private readonly greeting: string) {}
  async execute(): Promise<string> {
    return this.greeting;
  }
}

export async function tools(): Promise<unknown[]> {
  return [new Salute('Ahoy!')];
}
