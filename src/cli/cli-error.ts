import { ToolwrightError } from '../contract/index.js';

/**
 * A failure the CLI reports as one line on stderr (`toolwright: <message>`), without a stack,
 * exiting with `exitCode` (2 unless stated).
 */
export class CliError extends ToolwrightError {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = 2,
  ) {
    super('cli-failed', message);
  }
}
