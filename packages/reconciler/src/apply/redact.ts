/**
 * Apply writes secret values, and a service may echo a request in its error message. The client already
 * scrubs the fields it knows to be secret; this second pass removes every value apply revealed, in any field,
 * as written and as it looks inside JSON.
 */
export const REDACTED_TEXT = '[redacted]';

export type Redactor = (text: string) => string;

export function redactor(values: readonly string[]): Redactor {
  const forms = new Set<string>();
  for (const value of values) {
    if (value === '') continue;
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
  }
  // Longest first, so a value containing another is removed whole.
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const form of ordered) if (out.includes(form)) out = out.split(form).join(REDACTED_TEXT);
    return out;
  };
}
