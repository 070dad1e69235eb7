/**
 * A small YAML writer for the trees `monsync pull` produces: plain JSON data (objects, arrays, strings,
 * finite numbers, booleans, null) in block style, with short scalar-only entries in flow style the way
 * people write them by hand. Anything that could be read back differently (`yes`, `08:00`, `1e3`, `#x`) is
 * double-quoted, so a written file parses to exactly the data given. `pull --into` writes its edits with the same
 * rules (`flowText`, `blockLines`), so an edited tree reads like a pulled one.
 */

const FLOW_WIDTH = 100;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;
// Numbers, dates and times in YAML 1.2 and 1.1 (sexagesimal, binary, underscores); a GUID stays plain.
const NUMBER_LIKE = /^(?:[-+]?(?:[0-9][0-9_:.eE+-]*|\.[0-9][0-9_eE+-]*|\.inf|\.nan)|0[xob][0-9a-f_]+)$/i;
// Characters allowed in a plain scalar; `:`, `#`, `,` and brackets are left out so that flow context is safe too.
const PLAIN = /^[\p{L}\p{N}_./()+=@!?%$;~'-]+(?: [\p{L}\p{N}_./()+=@!?%$;~'-]+)*$/u;
const INDICATOR_START = /^[-?!%@'&*|>]/;

export function scalar(value: string | number | boolean | null): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`cannot write the number ${value} as YAML`);
    return String(value);
  }
  const plain = value.length > 0 && PLAIN.test(value) && !RESERVED.test(value) && !NUMBER_LIKE.test(value) && !INDICATOR_START.test(value);
  return plain ? value : JSON.stringify(value);
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function toJson(value: unknown, path: string): Json {
  if (isScalar(value)) return value;
  if (Array.isArray(value)) return value.map((item, i) => toJson(item, `${path}/${i}`));
  if (typeof value === 'object' && value !== null) {
    const out: { [key: string]: Json } = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      out[key] = toJson(item, `${path}/${key}`);
    }
    return out;
  }
  throw new TypeError(`cannot write ${typeof value} at ${path || '/'} as YAML`);
}

/** The one-line flow form of a value whose members are all scalars, or undefined when there is none. */
function flow(value: Json): string | undefined {
  if (isScalar(value)) return scalar(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (!value.every(isScalar)) return undefined;
    return `[${value.map((item) => scalar(item as string | number | boolean | null)).join(', ')}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  if (!entries.every(([, item]) => isScalar(item))) return undefined;
  return `{ ${entries.map(([key, item]) => `${scalar(key)}: ${scalar(item as string | number | boolean | null)}`).join(', ')} }`;
}

function writeMapping(value: { [key: string]: Json }, indent: string, lines: string[]): void {
  for (const [key, item] of Object.entries(value)) {
    const head = `${indent}${scalar(key)}:`;
    const inline = Array.isArray(item) && item.some((entry) => !isScalar(entry)) ? undefined : flow(item);
    if (inline !== undefined && (isScalar(item) || head.length + 1 + inline.length <= FLOW_WIDTH)) {
      lines.push(`${head} ${inline}`);
    } else if (Array.isArray(item)) {
      lines.push(head);
      writeSequence(item, `${indent}  `, lines);
    } else {
      lines.push(head);
      writeMapping(item as { [key: string]: Json }, `${indent}  `, lines);
    }
  }
}

function writeSequence(value: Json[], indent: string, lines: string[]): void {
  for (const item of value) {
    const inline = flow(item);
    if (inline !== undefined && (isScalar(item) || indent.length + 2 + inline.length <= FLOW_WIDTH)) {
      lines.push(`${indent}- ${inline}`);
      continue;
    }
    const nested: string[] = [];
    if (Array.isArray(item)) writeSequence(item, `${indent}  `, nested);
    else writeMapping(item as { [key: string]: Json }, `${indent}  `, nested);
    const first = nested[0] ?? '';
    nested[0] = `${indent}- ${first.slice(indent.length + 2)}`;
    lines.push(...nested);
  }
}

/** A YAML document for a top-level mapping, after optional comment lines (without their `# `). */
export function toYaml(value: Record<string, unknown>, comments: readonly string[] = []): string {
  const lines = comments.map((line) => (line === '' ? '#' : `# ${line}`));
  const data = toJson(value, '') as { [key: string]: Json };
  if (Object.keys(data).length === 0) lines.push('{}');
  else writeMapping(data, '', lines);
  return `${lines.join('\n')}\n`;
}

/** Any JSON value on one line in flow style (`{ vault: Web/shop-login }`), for a flow collection or a replaced scalar. */
export function flowText(value: unknown): string {
  const data = toJson(value, '');
  const write = (item: Json): string => {
    if (isScalar(item)) return scalar(item);
    if (Array.isArray(item)) return `[${item.map(write).join(', ')}]`;
    const entries = Object.entries(item);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([key, entry]) => `${scalar(key)}: ${write(entry)}`).join(', ')} }`;
  };
  return write(data);
}

/**
 * Block lines at `indent`: a mapping's entries (`as: 'pairs'`), or one sequence entry (`as: 'item'`, starting with `- `).
 * Short scalar-only collections are written in flow style, as `toYaml` does.
 */
export function blockLines(value: unknown, indent: string, as: 'pairs' | 'item'): string[] {
  const data = toJson(value, '');
  const lines: string[] = [];
  if (as === 'item') writeSequence([data], indent, lines);
  else writeMapping(data as { [key: string]: Json }, indent, lines);
  return lines;
}
