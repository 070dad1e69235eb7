import type { KindEntry } from '@monsync/schema';

type ApiObject = Record<string, unknown>;

/**
 * A listed object's fields as a tree declares them: `first` first, then the rest as listed; read-only fields (the
 * registry's, and `skip`), nulls and empty strings left out (omitted fields are never diffed, so they add only noise).
 */
export function clean(object: ApiObject, kind: KindEntry, first: readonly string[], skip: readonly string[] = []): ApiObject {
  const leave = new Set([...kind.readOnlyFields, ...skip]);
  const out: ApiObject = {};
  const keys = [...first.filter((key) => key in object), ...Object.keys(object).filter((key) => !first.includes(key))];
  for (const key of keys) {
    const value = object[key];
    if (leave.has(key) || value === null || value === undefined || value === '') continue;
    out[key] = value;
  }
  return out;
}
