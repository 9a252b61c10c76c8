/**
 * The text a client sees for a failure: an error's `message` (its `name` when the message is
 * empty), or `String(value)` for anything else thrown. Never a stack, never an `Error:` prefix
 * (the consuming harness adds that once), and never a throw of its own: a value that cannot be
 * turned into a string gives `tool failed with a value that cannot be shown`.
 */
export function errorTextOf(thrown: unknown): string {
  try {
    if (
      typeof thrown === 'object' &&
      thrown !== null &&
      typeof (thrown as { message?: unknown }).message === 'string'
    ) {
      const { message, name } = thrown as { message: string; name?: unknown };
      if (message !== '') return message;
      return typeof name === 'string' && name !== '' ? name : 'Error';
    }
    return String(thrown);
  } catch {
    return 'tool failed with a value that cannot be shown';
  }
}
