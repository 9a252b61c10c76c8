import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsInt, IsString } from 'class-validator';
import { compile, Description, Field, Tool } from '../src/index.js';
import { cleanText } from '../src/util/clean-text.js';

/*
 * Descriptions are listed as the author means them (the Perl seed's registry rule): surrounding
 * whitespace and the common indentation of a multi-line template literal are removed, in
 * `@Tool({ description })`, `@Description` and `@Field({ description })`. Names are never
 * rewritten (`_` stays `_`).
 */

test('descriptions: a multi-line template literal lists without its source indentation', () => {
  class Args {
    @Description(`
      Path of the file,
        relative to the workspace root.
    `)
    @IsString()
    path!: string;

    @Field({ description: '   How many lines.   ' })
    @IsInt()
    limit!: number;
  }

  @Tool({
    name: 'read_file',
    args: Args,
    description: `Reads a text file.

      Returns its lines:
        - one per line
    `,
  })
  class ReadFile {
    execute(): string {
      return '';
    }
  }

  const [tool] = compile([ReadFile]);
  assert.equal(tool!.name, 'read_file');
  assert.equal(tool!.description, 'Reads a text file.\n\nReturns its lines:\n  - one per line');
  assert.deepEqual(tool!.parameters?.properties, {
    path: { type: 'string', description: 'Path of the file,\n  relative to the workspace root.' },
    limit: { type: 'integer', description: 'How many lines.' },
  });
});

test('descriptions: cleanText keeps single lines and inner blank lines, and trims trailing spaces', () => {
  assert.equal(cleanText('  one line  '), 'one line');
  assert.equal(cleanText(''), '');
  assert.equal(cleanText('\n\n   \n'), '');
  assert.equal(cleanText('first\n    second  \n\n    third\n'), 'first\nsecond\n\nthird');
  assert.equal(cleanText('\r\n\tTabbed\r\n\t  more\r\n'), 'Tabbed\n  more');
});
