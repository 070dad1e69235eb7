import type { MigrationErrorCondition } from './types.js';

const FIELD_ORDER = ['ErrorConditionType', 'Value', 'Percentage', 'Effect'] as const;

function fields(condition: MigrationErrorCondition): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const field of FIELD_ORDER) {
    const value = condition[field];
    if (value === undefined) continue;
    // Value and Percentage are strings in the API: quoted, or YAML would read "4000" back as a number.
    out.push([field, field === 'Value' || field === 'Percentage' ? JSON.stringify(value) : value]);
  }
  return out;
}

/** `{ ErrorConditionType: LoadTimeLimit1, Value: "4000", Effect: Error }`, the style of the config examples. */
export function renderFlowCondition(condition: MigrationErrorCondition, padded = true): string {
  const body = fields(condition)
    .map(([key, value]) => `${key}: ${value}`)
    .join(', ');
  return padded ? `{ ${body} }` : `{${body}}`;
}

/** Lines of a block-map list item, the first starting with `- `, without indentation. */
export function renderBlockCondition(condition: MigrationErrorCondition): string[] {
  return fields(condition).map(([key, value], index) => `${index === 0 ? '- ' : '  '}${key}: ${value}`);
}

export interface RenderedEntry {
  condition: MigrationErrorCondition;
  /** Comment lines to put above the entry, as written (`# ...`). */
  above: string[];
  /** A comment for the end of the entry's first line. */
  trailing: string | undefined;
}

/** Renders list items at `column` (the column of their `-`), each line ending in `eol`. */
export function renderEntries(
  entries: readonly RenderedEntry[],
  column: number,
  style: 'flow' | 'block',
  eol: string,
  padded = true,
): string {
  const pad = ' '.repeat(column);
  let out = '';
  for (const entry of entries) {
    for (const line of entry.above) out += `${pad}${line}${eol}`;
    const lines = style === 'flow' ? [`- ${renderFlowCondition(entry.condition, padded)}`] : renderBlockCondition(entry.condition);
    lines.forEach((line, index) => {
      const comment = index === 0 && entry.trailing !== undefined ? `  ${entry.trailing}` : '';
      out += `${pad}${line}${comment}${eol}`;
    });
  }
  return out;
}
