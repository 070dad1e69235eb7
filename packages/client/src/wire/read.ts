import { convertValue, fieldRenamesOf, renamedValueFields, valueRename, type WireKind } from './renames.js';

type Obj = Record<string, unknown>;

const valueFields = new Map<WireKind, string[]>();

function valueFieldsOf(kind: WireKind): string[] {
  let fields = valueFields.get(kind);
  if (fields === undefined) {
    fields = renamedValueFields(kind);
    valueFields.set(kind, fields);
  }
  return fields;
}

/**
 * An object as read, in the published spelling: an older field name becomes the published one (its number
 * converted when the units differ) unless the object also holds the published field, which then wins; an older
 * value of a renamed enumeration becomes the published value. Returns the object itself when nothing changes
 * (the common case: listings of thousands of monitors are not copied).
 */
export function toPublished<T>(kind: WireKind, object: T): T {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return object;
  const source = object as Obj;
  let out: Obj | undefined;
  for (const rename of fieldRenamesOf(kind)) {
    if (!Object.hasOwn(source, rename.from)) continue;
    out ??= { ...source };
    const value = out[rename.from];
    delete out[rename.from];
    if (!Object.hasOwn(source, rename.to) || source[rename.to] === undefined || source[rename.to] === null) out[rename.to] = convertValue(rename, value);
  }
  for (const field of valueFieldsOf(kind)) {
    const rename = valueRename(kind, field, source[field]);
    if (rename === undefined) continue;
    out ??= { ...source };
    out[field] = rename.to;
  }
  return (out ?? source) as T;
}

/** `toPublished` bound to a kind, for a listing's `map`. */
export function publishedReader<T>(kind: WireKind): (item: unknown) => T {
  return (item) => toPublished(kind, item) as T;
}
