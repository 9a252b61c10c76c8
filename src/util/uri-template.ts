/*
 * URI templates (RFC 6570, levels 1 to 4, as MCP's resource templates use them): parsing with
 * the RFC's syntax rules, expansion, and the reverse, matching a URI against a template. No
 * dependencies.
 */

/** One variable of an expression: its name, whether it is exploded (`*`), and its prefix length (`:n`). */
export interface TemplateVariable {
  readonly name: string;
  readonly explode: boolean;
  /** The `:n` prefix modifier (1 to 9999), or `undefined`. */
  readonly prefix: number | undefined;
}

/** An expression `{<operator><variables>}`; `operator` is `""` for simple string expansion. */
export interface TemplateExpression {
  readonly kind: 'expression';
  readonly operator: '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';
  readonly variables: readonly TemplateVariable[];
}

/** Literal text between expressions, as written in the template. */
export interface TemplateLiteral {
  readonly kind: 'literal';
  readonly text: string;
}

/** A parsed template: its parts in order and every variable, in order of appearance. */
export interface ParsedTemplate {
  readonly template: string;
  readonly parts: readonly (TemplateLiteral | TemplateExpression)[];
  readonly variables: readonly TemplateVariable[];
}

/** The longest template `parseUriTemplate` accepts, in characters. */
export const MAX_TEMPLATE_LENGTH = 2048;
/** The longest URI `matchUriTemplate` tries to match, in characters (a longer one never matches). */
export const MAX_MATCHED_URI_LENGTH = 4096;

/** What `parseUriTemplate` answers: the template, or the first problem in words. */
export type TemplateParse =
  { readonly ok: true; readonly template: ParsedTemplate } | { readonly ok: false; readonly problem: string };

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const RESERVED_OPERATORS = new Set(['=', ',', '!', '@', '|']);
/** Characters RFC 6570 forbids in literals (besides controls and a `%` that starts no pct-encoding). */
const FORBIDDEN_LITERALS = new Set([' ', '"', "'", '<', '>', '\\', '^', '`', '{', '|', '}']);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;

/**
 * Parses a URI template by RFC 6570's grammar. Problems (the first one found) are named in
 * words: `unclosed "{" at 12`, `empty expression at 5`, `the operator "!" is reserved`,
 * `"a b" is not a valid variable name`, `the prefix :0 of "x" must be 1 to 9999`, `"x" has both a
 * prefix and "*"`, `variable "id" appears twice`, `the character " " at 3 is not allowed`, or
 * longer than `MAX_TEMPLATE_LENGTH`. A variable may appear once only (a URI could not be matched
 * to two values of it). It never throws.
 */
export function parseUriTemplate(template: string): TemplateParse {
  if (typeof template !== 'string') return { ok: false, problem: 'the template must be a string' };
  if (template.length > MAX_TEMPLATE_LENGTH)
    return { ok: false, problem: `it is longer than ${MAX_TEMPLATE_LENGTH} characters` };
  const parts: (TemplateLiteral | TemplateExpression)[] = [];
  const variables: TemplateVariable[] = [];
  const seen = new Set<string>();
  let literal = '';
  for (let i = 0; i < template.length; i++) {
    const char = template[i]!;
    if (char === '{') {
      const end = template.indexOf('}', i);
      if (end === -1) return { ok: false, problem: `unclosed "{" at ${i}` };
      const body = template.slice(i + 1, end);
      if (body === '') return { ok: false, problem: `empty expression at ${i}` };
      const parsed = parseExpression(body);
      if (typeof parsed === 'string') return { ok: false, problem: parsed };
      for (const variable of parsed.variables) {
        if (seen.has(variable.name)) return { ok: false, problem: `variable "${variable.name}" appears twice` };
        seen.add(variable.name);
        variables.push(variable);
      }
      if (literal !== '') parts.push({ kind: 'literal', text: literal });
      literal = '';
      parts.push(parsed);
      i = end;
      continue;
    }
    const code = char.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f || FORBIDDEN_LITERALS.has(char))
      return { ok: false, problem: `the character ${JSON.stringify(char)} at ${i} is not allowed` };
    if (char === '%' && !/^%[0-9A-Fa-f]{2}/.test(template.slice(i, i + 3)))
      return { ok: false, problem: `"%" at ${i} starts no percent-encoding` };
    literal += char;
  }
  if (literal !== '') parts.push({ kind: 'literal', text: literal });
  return { ok: true, template: { template, parts, variables } };
}

function parseExpression(body: string): TemplateExpression | string {
  const first = body[0]!;
  if (RESERVED_OPERATORS.has(first)) return `the operator ${JSON.stringify(first)} is reserved`;
  const operator = (OPERATORS.has(first) ? first : '') as TemplateExpression['operator'];
  const list = operator === '' ? body : body.slice(1);
  const variables: TemplateVariable[] = [];
  for (const spec of list.split(',')) {
    let name = spec;
    let explode = false;
    let prefix: number | undefined;
    if (name.endsWith('*')) {
      explode = true;
      name = name.slice(0, -1);
    }
    const colon = name.indexOf(':');
    if (colon !== -1) {
      const digits = name.slice(colon + 1);
      name = name.slice(0, colon);
      if (explode) return `${JSON.stringify(name)} has both a prefix and "*"`;
      if (!/^[1-9][0-9]{0,3}$/.test(digits))
        return `the prefix :${digits} of ${JSON.stringify(name)} must be 1 to 9999`;
      prefix = Number(digits);
    }
    if (!VARNAME.test(name)) return `${JSON.stringify(name)} is not a valid variable name`;
    variables.push({ name, explode, prefix });
  }
  return { kind: 'expression', operator, variables };
}

/** A variable's value for `expandUriTemplate`: a string, a list of strings, or `undefined` (left out). */
export type TemplateValue = string | readonly string[] | undefined;

interface OperatorRule {
  readonly first: string;
  readonly separator: string;
  readonly named: boolean;
  readonly ifEmpty: string;
  readonly reserved: boolean;
}

const RULES: Readonly<Record<TemplateExpression['operator'], OperatorRule>> = {
  '': { first: '', separator: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', reserved: false },
};

/** Percent-encodes what the operator does not allow (unreserved only, or unreserved and reserved). */
function encode(value: string, reserved: boolean): string {
  let out = '';
  for (const char of value) {
    if (/[A-Za-z0-9\-._~]/.test(char)) out += char;
    else if (reserved && /[:/?#[\]@!$&'()*+,;=]/.test(char)) out += char;
    else out += encodeURIComponent(char).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  }
  return out;
}

/**
 * Expands a parsed template with `values` by RFC 6570 (strings and lists; a variable whose value
 * is `undefined` or an empty list is left out). A `:n` prefix keeps the first `n` characters
 * of a string.
 */
export function expandUriTemplate(template: ParsedTemplate, values: Readonly<Record<string, TemplateValue>>): string {
  let out = '';
  for (const part of template.parts) {
    if (part.kind === 'literal') {
      out += part.text;
      continue;
    }
    const rule = RULES[part.operator];
    const pieces: string[] = [];
    for (const variable of part.variables) {
      const value = Object.hasOwn(values, variable.name) ? values[variable.name] : undefined;
      if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
      if (typeof value === 'string') {
        const text = encode(
          variable.prefix === undefined ? value : [...value].slice(0, variable.prefix).join(''),
          rule.reserved,
        );
        pieces.push(rule.named ? named(variable.name, text, rule) : text);
      } else {
        const items = (value as readonly string[]).map((item) => encode(item, rule.reserved));
        if (variable.explode)
          pieces.push(items.map((item) => (rule.named ? named(variable.name, item, rule) : item)).join(rule.separator));
        else pieces.push(rule.named ? named(variable.name, items.join(','), rule) : items.join(','));
      }
    }
    if (pieces.length > 0) out += rule.first + pieces.join(rule.separator);
  }
  return out;
}

function named(name: string, text: string, rule: OperatorRule): string {
  return text === '' ? `${name}${rule.ifEmpty}` : `${name}=${text}`;
}

/** The values `matchUriTemplate` read: a string per variable, or a list for an exploded one; absent when left out. */
export type MatchedValues = Record<string, string | string[]>;

const UNRESERVED = String.raw`(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})`;
const RESERVED = String.raw`(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})`;

interface Capture {
  readonly variable: TemplateVariable;
  readonly operator: TemplateExpression['operator'];
}

const matchers = new WeakMap<ParsedTemplate, { readonly regex: RegExp; readonly captures: readonly Capture[] }>();

/**
 * Matches `uri` against a parsed template, the reverse of `expandUriTemplate`: the value of each
 * variable found (percent-decoded), or `undefined` when the URI is not an expansion of the
 * template (or longer than `MAX_MATCHED_URI_LENGTH`, or holds a malformed percent-encoding).
 * An exploded variable reads as a list (`{/path*}` on `/a/b` is `["a", "b"]`); any other as a
 * string (a comma list is the caller's to split). Variables of `?`, `&` and `;` expressions may
 * each be left out but keep the template's order; a variable left out is absent from the answer,
 * and so is an empty value of any other expression (`test://a//b` against `test://a/{id}/b`).
 * Literals match exactly (case included). The cost is at worst quadratic in the URI's length
 * (two expressions whose values could share a boundary), hence the length bound.
 */
export function matchUriTemplate(template: ParsedTemplate, uri: string): MatchedValues | undefined {
  if (typeof uri !== 'string' || uri.length > MAX_MATCHED_URI_LENGTH) return undefined;
  let compiled = matchers.get(template);
  if (compiled === undefined) {
    compiled = compileMatcher(template);
    matchers.set(template, compiled);
  }
  const found = compiled.regex.exec(uri);
  if (found === null) return undefined;
  const values: MatchedValues = {};
  try {
    compiled.captures.forEach((capture, index) => {
      const raw = found[index + 1];
      // An empty simple, reserved, label or path value reads as left out (`test://a//b` names no id).
      if (raw === undefined || (raw === '' && !RULES[capture.operator].named)) return;
      values[capture.variable.name] = valueOf(capture, raw);
    });
  } catch {
    return undefined;
  }
  return values;
}

function valueOf(capture: Capture, raw: string): string | string[] {
  const { variable, operator } = capture;
  const rule = RULES[operator];
  if (!variable.explode) return decodeURIComponent(rule.named ? afterName(variable.name, raw) : raw);
  const separator = rule.separator === ',' ? ',' : rule.separator;
  return raw.split(separator).map((item) => decodeURIComponent(rule.named ? afterName(variable.name, item) : item));
}

/** The value part of `name=value` (`name` alone, as `;` writes an empty value, is `""`). */
function afterName(name: string, pair: string): string {
  if (pair === name) return '';
  return pair.startsWith(`${name}=`) ? pair.slice(name.length + 1) : pair;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileMatcher(template: ParsedTemplate): { regex: RegExp; captures: readonly Capture[] } {
  let pattern = '^';
  const captures: Capture[] = [];
  for (const part of template.parts) {
    if (part.kind === 'literal') {
      pattern += escapeRegExp(part.text);
      continue;
    }
    const rule = RULES[part.operator];
    const chars = rule.reserved ? RESERVED : UNRESERVED;
    if (rule.named) {
      // Each named variable may be left out; the first present one carries the operator's first character.
      const alternatives = part.variables.map((variable) => {
        const name = escapeRegExp(variable.name);
        const pair = `${name}(?:=${chars}*)?`;
        return variable.explode ? `(${pair}(?:${escapeRegExp(rule.separator)}${pair})*)` : `(${pair})`;
      });
      const lead = `[${escapeRegExp(rule.first)}${escapeRegExp(rule.separator)}]`;
      for (const [index, alternative] of alternatives.entries()) {
        pattern += `(?:${lead}${alternative})?`;
        captures.push({ variable: part.variables[index]!, operator: part.operator });
      }
      continue;
    }
    const separator = escapeRegExp(rule.separator);
    const pieces = part.variables.map((variable) =>
      variable.explode ? `(${chars}*(?:${separator}${chars}*)*)` : `(${chars}*)`,
    );
    let body = pieces[0]!;
    for (const piece of pieces.slice(1)) body += `(?:${separator}${piece})?`;
    pattern += rule.first === '' ? `(?:${body})?` : `(?:${escapeRegExp(rule.first)}${body})?`;
    for (const variable of part.variables) captures.push({ variable, operator: part.operator });
  }
  return { regex: new RegExp(`${pattern}$`), captures };
}
