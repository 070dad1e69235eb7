/**
 * The escaping rules of monsync's outputs (docs/architecture.md, Escaping): every text monsync did not write itself
 * (names and fields from the service, its error messages, file names, config values) goes through one of these
 * before it reaches a terminal, an Actions log or Markdown. JSON output is never escaped: it holds values exactly.
 *
 * - Terminal and Actions log (`plainText`, `shownValue`, `plainLines`, `errorText`): no control character, format
 *   character (bidi overrides, zero-width) or line separator is written raw; each is shown as a JSON-style escape
 *   (`\u001b`, `\n`). So such text never spans lines, and it can never start one with a workflow command (`::`), nor
 *   carry the runner's older `##[` command form anywhere in a line.
 * - Markdown (`markdownText`, `markdownCode`): the same escapes first, then no HTML, no emphasis or link, no heading,
 *   list or quote at the start of a line, and code spans whose backticks cannot be closed from inside.
 * - A Mermaid label in a ```` ```mermaid ```` block (`mermaidLabel`): the terminal escapes first, then every character
 *   but letters, digits and plain punctuation as a Mermaid entity code (`#34;`), inside the double quotes.
 * - Every rule also shows look-alikes escaped: spaces other than U+0020 (NBSP, ...), and combining marks in text
 *   that is not in NFC, so `"Site"`, `"Si\u200bte"`, `"Site\u00a0"` read differently wherever a key is shown.
 */

/**
 * Controls (C0, DEL, C1), format characters (bidi, zero-width, soft hyphen, BOM, tags), line/paragraph separators, lone
 * surrogates, and what else Unicode says shows as nothing though it is no format character (the combining grapheme
 * joiner U+034F, variation selectors, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0): each of these hides in a key.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu;
/** Spaces that are not U+0020: they look like one, or like nothing. */
const LOOK_ALIKE_SPACE = /(?! )\p{Zs}/gu;
const COMBINING_MARK = /\p{M}/gu;
/** The runner's first command syntax, `##[command]data`, which it looks for anywhere in a line. */
const OLD_COMMAND = /##\[/g;
/** A workflow command: `::` at the start of a line, after any white space (the runner trims it). */
const LEADING_COMMAND = /^(\s*):(?=:)/u;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** `\u001b`, or a surrogate pair `\ud83d\ude00`: the JSON spelling, so a shown string is still a JSON string. */
export function unicodeEscape(char: string): string {
  const short = SHORT[char];
  if (short !== undefined) return short;
  let out = '';
  for (let i = 0; i < char.length; i += 1) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** What may end up in an Actions log: no `##[` command anywhere, no `::` at the start. */
function commandFree(text: string): string {
  return text.replace(OLD_COMMAND, '##\\u005b').replace(LEADING_COMMAND, (_, space: string) => `${space}\\u003a`);
}

/** Look-alikes escaped (see the head of this file); `text` is the original, whose normal form decides about marks. */
function lookAlikesShown(shown: string, text: string): string {
  const spaced = shown.replace(LOOK_ALIKE_SPACE, unicodeEscape);
  return text.normalize('NFC') === text ? spaced : spaced.replace(COMBINING_MARK, unicodeEscape);
}

/**
 * Text for a terminal or a log line (an operator's name, a file name, a field path, a service's error message): on
 * one line, with every invisible character and look-alike shown escaped. Messages quote keys, so the look-alike rule
 * holds for all text, not only for names shown alone.
 */
export function plainText(text: string): string {
  return commandFree(lookAlikesShown(text.replace(INVISIBLE, unicodeEscape), text));
}

/**
 * A message monsync composed over several lines (a refused plan's reasons): each line as `plainText`. What it
 * interpolates from outside must already be on one line (quoted with `shownValue`, or `plainText`).
 */
export function plainLines(text: string): string {
  return text.split('\n').map(plainText).join('\n');
}

/**
 * A value as it is shown in a plan (a key, a field's before or after): its JSON text, with what JSON leaves raw
 * escaped too (DEL, C1, format characters, separators, look-alikes). The result is still JSON for the same value.
 */
export function shownValue(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  // The look-alike rule reads the JSON text: marks only appear escaped when the text is not NFC as a whole. An
  // ellipsis is escaped too, so that one shown raw is always where `formatValue` left text out.
  return lookAlikesShown(json.replace(INVISIBLE, unicodeEscape), json).replace(OLD_COMMAND, '##\\u005b').replace(/…/g, '\\u2026');
}

/**
 * An error's message for a terminal or a log. One that came from a request (a status along its causes) is one line
 * by construction, so a line break in it is the service's and is escaped (`plainText`); monsync's own messages keep
 * their lines (`plainLines`).
 */
export function errorText(error: Error): string {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth += 1) {
    if (typeof (at as { status?: unknown }).status === 'number') return plainText(error.message);
  }
  return plainLines(error.message);
}

/** Characters that act in Markdown mid-line, and the HTML ones (entities). */
const MARKDOWN_PUNCTUATION = /[\\`*_[\]|~]/g;
/** What makes a line a heading, a list item, a quote, a setext underline or a thematic break when it comes first. */
const LINE_START = /^(\s*)([-+=#>]|\d+[.)])/;

/** An `@` that GitHub would read as a mention (`@user`, `@org/team`): not part of an e-mail address. */
const MENTION = /(?<![\p{L}\p{N}._%+-])@/gu;

/**
 * Text outside code in Markdown: `plainText`, then HTML escaped as entities, the Markdown punctuation that acts
 * mid-line backslash-escaped, and a line-starting character (`#`, `-`, `>`, `1.`) escaped, since the text may begin a line.
 * A mention's `@` becomes an entity: it renders the same, and a name from the account never notifies anyone.
 */
export function markdownText(text: string): string {
  const inline = plainText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(MENTION, '&#64;')
    .replace(MARKDOWN_PUNCTUATION, '\\$&');
  return inline.replace(LINE_START, (_, space: string, lead: string) => `${space}${/^\d/.test(lead) ? `${lead.slice(0, -1)}\\${lead.slice(-1)}` : `\\${lead}`}`);
}

/**
 * A code span holding `text` (`plainText` escapes first): delimited by one backtick more than the longest run inside,
 * padded when the text starts or ends with one. In a table cell `|` is escaped, which GitHub honours inside code.
 */
export function markdownCode(text: string, options: { inTable?: boolean } = {}): string {
  let shown = plainText(text);
  if (options.inTable === true) shown = shown.replace(/\|/g, '\\|');
  let longest = 0;
  for (const run of shown.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || shown.trim() === '' ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** What a Mermaid label keeps as written: letters, digits, spaces and punctuation that means nothing to Mermaid or HTML. */
const MERMAID_PLAIN = /[\p{L}\p{N} .,@_+:/()'?!=*$^~-]/u;

/**
 * A node or subgraph label for a ```` ```mermaid ```` block, quoted: `"Night shift"`; several lines are joined by
 * `<br/>`, the one piece of markup it writes. Mermaid reads entity codes (`#34;`, `#9829;`) inside a quoted label, so
 * every character but letters, digits, spaces and plain punctuation is written as one: a quote, `]`, `|`, `;`, `%`
 * or `<` cannot end the label, start an edge (`-->` keeps no `>`), a comment, a directive or HTML, and a backtick
 * cannot close the code fence around the diagram. The terminal escapes come first, so a line break or a bidi
 * override is shown as `\n`, `\u202e`, never raw.
 */
export function mermaidLabel(text: string | readonly string[]): string {
  const lines = typeof text === 'string' ? [text] : text;
  const coded = lines.map((line) => {
    let out = '';
    for (const char of plainText(line)) out += MERMAID_PLAIN.test(char) ? char : `#${char.codePointAt(0) ?? 0};`;
    return out;
  });
  return `"${coded.join('<br/>')}"`;
}
