/**
 * Keys that read the same but are different strings: `"Site"`, `"Si\u200bte"`, `"Site\u00a0"`, `" Site"` and the
 * decomposed (NFD) spelling of a name. The service keeps them apart, so two of them are two objects nobody can tell
 * apart in a plan; the loader refuses two such declarations, and the plan warns where a declaration matches a live
 * object only in this form (docs/architecture.md, Identity, ownership and secrets).
 */

/** Printable ASCII without a space at either end: such a key is its own look-alike form (nearly every key). */
const PLAIN = /^[!-~](?:[ -~]*[!-~])?$/;
/** What shows as nothing: zero-width characters and joiners, bidi controls, BOM, soft hyphen, variation selectors, fillers. */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
/** Spaces that are not U+0020 (no-break, narrow, figure, ...). */
const OTHER_SPACE = /(?! )\p{Zs}/gu;

/** The form in which look-alike keys are equal: invisible characters removed, spaces made U+0020, NFC, trimmed. */
export function lookAlikeForm(key: string): string {
  if (PLAIN.test(key)) return key;
  return key.replace(IGNORABLE, '').replace(OTHER_SPACE, ' ').normalize('NFC').trim();
}

const codePoint = (char: string): string => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

function distinct(chars: Iterable<string>): string {
  return [...new Set([...chars].map(codePoint))].join(', ');
}

/** What sets a key apart from its look-alike form, for people: `a non-breaking or other look-alike space (U+00A0)`. */
function oddities(key: string): string[] {
  const out: string[] = [];
  const invisible = key.match(IGNORABLE);
  if (invisible !== null) out.push(`an invisible character (${distinct(invisible)})`);
  const spaces = key.match(OTHER_SPACE);
  if (spaces !== null) out.push(`a space that is not U+0020 (${distinct(spaces)})`);
  if (key.normalize('NFC') !== key) out.push('a decomposed spelling (combining marks, Unicode NFD rather than NFC)');
  // Plain whitespace: JavaScript's trim also takes U+FEFF and U+00A0, named above.
  const plain = key.replace(IGNORABLE, '').replace(OTHER_SPACE, '');
  if (plain !== plain.trimStart()) out.push('whitespace at the start');
  if (plain !== plain.trimEnd()) out.push('whitespace at the end');
  return out;
}

/** Why two different keys with one look-alike form read the same: `"Si\u200bte" has an invisible character (U+200B)`. */
export function lookAlikeDifference(a: string, b: string): string {
  const parts = [a, b].flatMap((key) => {
    const found = oddities(key);
    return found.length === 0 ? [] : [`${JSON.stringify(key)} has ${found.join(' and ')}`];
  });
  return parts.join('; ');
}
