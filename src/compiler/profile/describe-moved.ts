import type { Json } from '../../contract/index.js';

/**
 * Words for a keyword a profile moved out of the listing, for the description the model reads
 * (`at most 80 characters`, `default: 20`). Unknown keywords are named with their JSON value.
 */
export function describeMoved(keyword: string, value: Json): string {
  const text = JSON.stringify(value);
  switch (keyword) {
    case 'minimum':
      return `at least ${text}`;
    case 'maximum':
      return `at most ${text}`;
    case 'exclusiveMinimum':
      return `more than ${text}`;
    case 'exclusiveMaximum':
      return `less than ${text}`;
    case 'multipleOf':
      return `a multiple of ${text}`;
    case 'minLength':
      return `at least ${text} character${value === 1 ? '' : 's'}`;
    case 'maxLength':
      return `at most ${text} character${value === 1 ? '' : 's'}`;
    case 'minItems':
      return `at least ${text} item${value === 1 ? '' : 's'}`;
    case 'maxItems':
      return `at most ${text} item${value === 1 ? '' : 's'}`;
    case 'uniqueItems':
      return 'no duplicate items';
    case 'pattern':
      return `matches the pattern ${text}`;
    case 'format':
      return `format ${String(value)}`;
    case 'default':
      return `default: ${text}`;
    case 'examples':
      return `examples: ${Array.isArray(value) ? value.map((v) => JSON.stringify(v)).join(', ') : text}`;
    case 'deprecated':
      return value === true ? 'deprecated' : '';
    case 'enum':
      return `one of ${Array.isArray(value) ? value.map((v) => JSON.stringify(v)).join(', ') : text}`;
    case 'not':
      return 'some values are refused (the server says which)';
    case 'allOf':
      return 'further rules apply (the server checks them)';
    case 'oneOf':
      return 'exactly one of several forms (the server checks it)';
    default:
      return `${keyword}: ${text}`;
  }
}
