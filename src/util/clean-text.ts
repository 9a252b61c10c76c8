const LINE_BREAK = /[\r\n]/;

/**
 * A description as its author means it, the way the Perl seed's registry cleans every
 * description: surrounding blank lines and whitespace are removed, then the indentation the
 * lines after the first share (the indentation of a template literal in the source), and
 * trailing whitespace on each line; the first line loses its own leading whitespace. Blank
 * lines inside stay (as empty lines), and so does indentation beyond the common part:
 *
 *   cleanText(`
 *       Reads a file.
 *         - path: relative to the root
 *     `) === 'Reads a file.\n  - path: relative to the root'
 *
 * A single-line text is only trimmed. Tabs count as one character of indentation, like a space.
 * Never throws; the zero value `''` stays `''`.
 */
export function cleanText(text: string): string {
  if (isCleanLine(text)) return text;
  // Most other texts are one line too: trimmed without splitting (what the lines below would give).
  if (!LINE_BREAK.test(text)) return text.trim();
  const lines = text.split(/\r\n|\n|\r/).map((line) => line.trimEnd());
  let common = Infinity;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    common = Math.min(common, line.length - line.trimStart().length);
  }
  const cut = lines.map((line, i) => (i === 0 ? line.trimStart() : common === Infinity ? line : line.slice(common)));
  let start = 0;
  let end = cut.length;
  while (start < end && cut[start] === '') start++;
  while (end > start && cut[end - 1] === '') end--;
  return cut.slice(start, end).join('\n');
}

/**
 * Whether `text` is a string `cleanText` answers unchanged because it is one line that starts and
 * ends with a printable ASCII character (never whitespace): most descriptions, found without a
 * regular expression or a trimmed copy. False says nothing (`cleanText` may still answer `text`).
 */
export function isCleanLine(text: unknown): boolean {
  if (typeof text !== 'string' || text.length === 0) return false;
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  return first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f && !text.includes('\n') && !text.includes('\r');
}
