/**
 * `allowUnknown` of monsync.yaml for what pull writes: the live account may hold fields and enum values the published
 * definition of this release lacks (the service added them since), which strict validation refuses. `pull` writes
 * what its tree needs into the new monsync.yaml; `pull --into` and `import` add to the tree's monsync.yaml, in place,
 * only what the objects they wrote need: never what the tree held before (a typo of the team's stays an error).
 */
import { configJsonSchema, readAllowUnknown, unknownIn, type AllowUnknown, type PublishedObject } from '@monsync/schema';
import { isMap, isSeq, parseAllDocuments, type Node } from 'yaml';
import { nodeAt } from './declarations.js';
import type { EditableFile, EditableMap, EditableSeq } from './yaml-edits.js';

/** Where a tree declares each top-level object whose fields are published (the children are inside them). */
const DECLARED: readonly (readonly [readonly string[], PublishedObject])[] = [
  [['monitors'], 'Monitor'],
  [['monitorGroups'], 'MonitorGroup'],
  [['slas'], 'Sla'],
  [['vault', 'sections'], 'VaultSection'],
  [['scheduledReports'], 'ScheduledReport'],
  [['operators'], 'Operator'],
  [['operatorGroups'], 'OperatorGroup'],
  [['alertDefinitions'], 'AlertDefinition'],
  [['rumWebsites'], 'RumWebsite'],
];

const TABLES = ['fields', 'values'] as const;

function listAt(document: unknown, path: readonly string[]): unknown[] {
  let value = document;
  for (const segment of path) value = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[segment] : undefined;
  return Array.isArray(value) ? value : [];
}

/** What the declarations of `documents` (a tree's files, or a pulled tree's data) hold beyond the published definition. */
export function unknownOfTree(documents: readonly unknown[]): AllowUnknown {
  const defs = configJsonSchema().$defs as Readonly<Record<string, unknown>>;
  const found = { fields: new Map<string, Set<string>>(), values: new Map<string, Set<string>>() };
  for (const [path, object] of DECLARED) {
    const objects = documents.flatMap((document) => listAt(document, path));
    if (objects.length === 0) continue;
    const unknown = unknownIn(defs, object, objects);
    for (const table of TABLES) for (const [key, names] of Object.entries(unknown[table])) found[table].set(key, new Set([...(found[table].get(key) ?? []), ...names]));
  }
  const sorted = (table: Map<string, Set<string>>) => Object.fromEntries([...table].map(([key, names]) => [key, [...names].sort()]));
  return { fields: sorted(found.fields), values: sorted(found.values) };
}

export function allowsNothing(allow: AllowUnknown): boolean {
  return Object.keys(allow.fields).length + Object.keys(allow.values).length === 0;
}

/** What `allow` lets through that none of `others` does. */
function without(allow: AllowUnknown, ...others: readonly AllowUnknown[]): AllowUnknown {
  const table = (name: (typeof TABLES)[number]) =>
    Object.fromEntries(
      Object.entries(allow[name])
        .map(([key, names]) => [key, names.filter((n) => !others.some((other) => other[name][key]?.includes(n) === true))] as const)
        .filter(([, names]) => names.length > 0),
    );
  return { fields: table('fields'), values: table('values') };
}

const documentsOf = (text: string): unknown[] => parseAllDocuments(text, { version: '1.2', schema: 'core', uniqueKeys: false }).map((document) => document.toJS() as unknown);

/**
 * Adds to `settings` (monsync.yaml, as an editable file) what the edited files hold beyond the published definition
 * that the files before did not hold and its `allowUnknown` does not let through. Returns what was added, as edit
 * lines (`allowUnknown.fields.monitor: Tags`); none when nothing was needed.
 */
export function allowWritten(settings: EditableFile, before: readonly string[], after: readonly string[]): string[] {
  const root = settings.documents[0]?.contents as Node | null | undefined;
  const written = settings.documents[0]?.toJS() as unknown;
  const allowed = readAllowUnknown(written !== null && typeof written === 'object' ? (written as Record<string, unknown>)['allowUnknown'] : undefined);
  const needed = without(unknownOfTree(after.flatMap(documentsOf)), unknownOfTree(before.flatMap(documentsOf)), allowed);
  if (allowsNothing(needed) || !isMap(root)) return [];
  const lines = TABLES.flatMap((table) => Object.entries(needed[table]).map(([key, names]) => `allowUnknown.${table}.${key}: ${names.join(', ')}`));
  const present = nodeAt(root, ['allowUnknown']);
  if (present === undefined || !isMap(present.node)) {
    const value = Object.fromEntries(TABLES.filter((table) => Object.keys(needed[table]).length > 0).map((table) => [table, needed[table]]));
    settings.appendPair(root as EditableMap, 'allowUnknown', value, [], ABOUT);
    return lines;
  }
  const allowMap = present.node;
  for (const table of TABLES) {
    const entries = Object.entries(needed[table]);
    if (entries.length === 0) continue;
    const tableNode = nodeAt(allowMap, [table]);
    if (tableNode === undefined || !isMap(tableNode.node)) {
      settings.appendPair(allowMap as EditableMap, table, Object.fromEntries(entries), [root]);
      continue;
    }
    for (const [key, names] of entries) {
      const list = nodeAt(tableNode.node, [key]);
      const parents = [root, allowMap, tableNode.node];
      if (list !== undefined && isSeq(list.node)) for (const name of names) settings.appendItem(list.node as EditableSeq, name, [...parents, list.node]);
      else if (list === undefined) settings.appendPair(tableNode.node as EditableMap, key, names, parents);
    }
  }
  return lines;
}

const ABOUT = ['What the live account holds beyond the published definition of this release of monsync (written by', 'monsync pull --into or import): the service added it since. Remove an entry once monsync publishes it.'];
