import { isDeepStrictEqual } from 'node:util';
import { fieldRename, valueRename, convertValue, type WireKind } from '@monsync/client/wire';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, Scalar, type Pair, type YAMLMap } from 'yaml';
import { kindEntry } from '../kinds.js';
import { WIRE_KIND_OF_LIST } from '../wire-kinds.js';
import { keyName, locate, type SourceContext } from './analyze-monitor.js';
import { PARSE_OPTIONS } from './rewrite-yaml.js';
import { applyEdits, type TextEdit } from './source-text.js';
import type { MigrationProblem, MigrationRename } from './types.js';

export interface RenameOutcome {
  /** The new text, or undefined when nothing changes (or the file cannot be rewritten safely). */
  text: string | undefined;
  renames: MigrationRename[];
  problems: MigrationProblem[];
}

const TO_JS = { maxAliasCount: 100, mapAsMap: true };

/** The scalar as it would be written in place of `node`, in the same quoting; undefined for block scalars. */
function token(node: Scalar, value: string | number): string | undefined {
  if (typeof value === 'number') return String(value);
  switch (node.type) {
    case Scalar.PLAIN:
      return value;
    case Scalar.QUOTE_DOUBLE:
      return JSON.stringify(value);
    case Scalar.QUOTE_SINGLE:
      return `'${value.replace(/'/g, "''")}'`;
    default:
      return undefined;
  }
}

function objectName(map: YAMLMap, list: string, index: number): string {
  for (const field of ['Name', 'Description', 'key']) {
    const value = map.get(field);
    if (typeof value === 'string' && value !== '') return value;
  }
  return `${list}[${index}]`;
}

interface Collected {
  edits: TextEdit[];
  renames: MigrationRename[];
  problems: MigrationProblem[];
}

/** Replaces the text of one scalar; false when its form cannot be kept (a block scalar, no source range). */
function replaceScalar(node: Scalar, value: string | number, out: Collected): boolean {
  const text = token(node, value);
  const range = node.range;
  if (text === undefined || !range) return false;
  out.edits.push({ start: range[0], end: range[1], text });
  node.value = value;
  return true;
}

function renameInEntry(map: YAMLMap, kind: WireKind, list: string, index: number, ctx: SourceContext, out: Collected): void {
  const object = objectName(map, list, index);
  const present = new Set(map.items.map((pair) => keyName(pair)));
  for (const pair of map.items as Pair[]) {
    const name = keyName(pair);
    if (name === undefined || !isScalar(pair.key)) continue;
    const at = locate(ctx, pair.key.range?.[0] ?? 0);
    const field = fieldRename(kind, name);
    if (field !== undefined) {
      if (present.has(field.to)) {
        out.problems.push({
          severity: 'error',
          code: 'MIGRATE_RENAME_CONFLICT',
          message: `${kindEntry(kind)?.title.one ?? kind} "${object}" has both \`${field.from}\` and \`${field.to}\`; the service keeps only \`${field.to}\`: remove \`${field.from}\``,
          ...at,
        });
        continue;
      }
      const before = isScalar(pair.value) ? pair.value.value : undefined;
      const after = convertValue(field, before);
      if (after !== before && isScalar(pair.value) && typeof after === 'number' && !replaceScalar(pair.value, after, out)) continue;
      if (!replaceScalar(pair.key, field.to, out)) continue;
      const rename: MigrationRename = { ...at, kind, object, what: 'field', field: field.from, from: field.from, to: field.to };
      if (after !== before && typeof before === 'number' && typeof after === 'number') rename.converted = { from: before, to: after };
      out.renames.push(rename);
      continue;
    }
    if (!isScalar(pair.value)) continue;
    const value = valueRename(kind, name, pair.value.value);
    if (value === undefined) continue;
    const valueAt = locate(ctx, pair.value.range?.[0] ?? 0);
    if (replaceScalar(pair.value, value.to, out)) out.renames.push({ ...valueAt, kind, object, what: 'value', field: name, from: value.from, to: value.to });
  }
}

/**
 * Rewrites the spec's and the v3 API's spellings of fields and values (the rename table of `@monsync/client/wire`)
 * to the published ones, token by token: only the renamed keys and values change, so comments, quoting and layout
 * stay byte for byte. The result must parse to exactly the intended data, or the file is left alone.
 */
export function renameWireSpellings(source: string, file: string, shown: string = file): RenameOutcome {
  const lineCounter = new LineCounter();
  const ctx: SourceContext = { file, shown, lineCounter };
  const doc = parseDocument(source, { ...PARSE_OPTIONS, lineCounter });
  // A file that does not parse is reported by the removed-field pass, which reads the same text.
  if (doc.errors.length > 0 || !isMap(doc.contents)) return { text: undefined, renames: [], problems: [] };
  const out: Collected = { edits: [], renames: [], problems: [] };
  for (const pair of doc.contents.items) {
    const list = keyName(pair);
    if (list === undefined || !Object.hasOwn(WIRE_KIND_OF_LIST, list) || !isSeq(pair.value)) continue;
    const kind = WIRE_KIND_OF_LIST[list] as WireKind;
    pair.value.items.forEach((item, index) => {
      if (isMap(item)) renameInEntry(item, kind, list, index, ctx, out);
    });
  }
  if (out.renames.length === 0) return { text: undefined, renames: [], problems: out.problems };
  const text = applyEdits(source, out.edits);
  const check = text === undefined ? undefined : parseDocument(text, PARSE_OPTIONS);
  let same = false;
  try {
    same = check !== undefined && check.errors.length === 0 && isDeepStrictEqual(check.toJS(TO_JS), doc.toJS(TO_JS));
  } catch {
    // toJS throws on aliases it cannot resolve: then the meanings cannot be shown equal.
  }
  if (!same) {
    return {
      text: undefined,
      renames: [],
      problems: [
        ...out.problems,
        {
          severity: 'error',
          code: 'MIGRATE_REWRITE_FAILED',
          message: 'renaming the spec spellings of this file could not be verified (its layout is unusual), so it was left unchanged; rename them by hand',
          ...locate(ctx, 0),
        },
      ],
    };
  }
  return { text, renames: out.renames, problems: out.problems };
}
