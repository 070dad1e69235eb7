/**
 * Marker lines monsync keeps at the end of a text field (docs/architecture.md, Markers): `monsync:fp=<hex>` in a vault item's `Notes`
 * (fingerprint of its secrets), `monsync:key=<key>` in a scheduled report's `InternalNotes` (reports have no name),
 * `monsync:retired=<strategy>` in a retired monitor's `Notes`.
 * They are stripped before the user-visible text is compared and added back on every write.
 */
import type { MarkerSpec } from '../kinds/contract.js';

/** `retired`: a monitor monsync retired instead of deleting it (`monsync:retired=<removal strategy>` in `Notes`). */
export type MarkerName = MarkerSpec['name'] | 'retired';

const PATTERNS: Record<MarkerName, RegExp> = {
  // A monitor's marker adds where its secrets come from after the fingerprint (kinds/monitor-secret-refs.ts).
  fp: /(?:^|\r?\n)monsync:fp=([0-9a-f]*(?: refs=[^\s]*)?)[ \t]*\r?\n?$/,
  key: /(?:^|\r?\n)monsync:key=([^\r\n]*?)[ \t]*\r?\n?$/,
  retired: /(?:^|\r?\n)monsync:retired=([^\r\n]*?)[ \t]*\r?\n?$/,
};

export interface SplitText {
  /** The text without the marker line; `undefined` when nothing is left. */
  text: string | undefined;
  /** The marker's value, `undefined` when the text carries no marker. */
  marker: string | undefined;
}

export function splitMarker(value: unknown, name: MarkerName): SplitText {
  if (typeof value !== 'string') return { text: undefined, marker: undefined };
  const match = PATTERNS[name].exec(value);
  if (!match) return { text: value === '' ? undefined : value, marker: undefined };
  const text = value.slice(0, match.index);
  return { text: text === '' ? undefined : text, marker: match[1] ?? '' };
}

export function withMarker(text: string | undefined, name: MarkerName, value: string): string {
  const line = `monsync:${name}=${value}`;
  return text === undefined || text === '' ? line : `${text}\n${line}`;
}
