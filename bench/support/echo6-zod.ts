/** The echo6 tool's arguments as a zod shape (see `echo6-args.ts`), the same for SDK 1.x and 2.x. */
import * as z from 'zod';

/** A fresh zod shape of echo6's 6 properties (each tool gets its own). */
export function echo6Shape() {
  return {
    text: z.string().max(10_000).describe('The text to echo back'),
    count: z.number().int().min(1).max(5).optional().describe('How many times to repeat it (default 1)'),
    separator: z.string().max(10).optional().describe('What goes between the copies (default one space)'),
    prefix: z.string().max(100).optional().describe('What goes before the copies'),
    suffix: z.string().max(100).optional().describe('What goes after the copies'),
    upper: z.boolean().optional().describe('Upper-case the answer'),
  };
}
