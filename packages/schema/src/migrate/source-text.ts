/** Offsets and lines of one source text, for splicing edits into it without re-printing the rest. */
export class SourceText {
  readonly eol: string;

  constructor(readonly text: string) {
    this.eol = text.includes('\r\n') ? '\r\n' : '\n';
  }

  lineStart(offset: number): number {
    const start = this.text.lastIndexOf('\n', offset - 1) + 1;
    // A byte-order mark is no column: counting it would indent lists under the first line's key one space less.
    return start === 0 && offset > 0 && this.text.startsWith('\uFEFF') ? 1 : start;
  }

  /** The offset just past the newline that ends the line holding `offset` (or the text's end). */
  endOfLine(offset: number): number {
    if (offset > 0 && this.text[offset - 1] === '\n') return offset;
    const newline = this.text.indexOf('\n', offset);
    return newline === -1 ? this.text.length : newline + 1;
  }

  column(offset: number): number {
    return offset - this.lineStart(offset);
  }

  /** True when only spaces precede `offset` on its line (a block-map key, not one after `- `). */
  startsLine(offset: number): boolean {
    return /^[ \t]*$/.test(this.text.slice(this.lineStart(offset), offset));
  }

  /** The first non-space offset at or after `offset` on the same line. */
  skipSpaces(offset: number): number {
    let at = offset;
    while (this.text[at] === ' ' || this.text[at] === '\t') at += 1;
    return at;
  }

  /** A `# comment` after `offset` on the same line, as written (without the newline). */
  trailingComment(offset: number): string | undefined {
    const rest = this.text.slice(offset, this.endOfLine(offset)).replace(/\r?\n$/, '');
    const match = /^[ \t]*(#.*?)[ \t]*$/.exec(rest);
    return match?.[1];
  }

  /**
   * Comment lines directly above the line of `offset` at the same indentation (no blank line between):
   * the ones that describe that key. Returns where they start and their text.
   */
  commentsAbove(offset: number): { start: number; lines: string[] } | undefined {
    if (!this.startsLine(offset)) return undefined;
    const indent = this.column(offset);
    let start = this.lineStart(offset);
    const lines: string[] = [];
    while (start > 0) {
      const previous = this.lineStart(start - 1);
      const line = this.text.slice(previous, start).replace(/\r?\n$/, '');
      const match = /^( *)(#.*?)[ \t]*$/.exec(line);
      if (!match || (match[1] ?? '').length !== indent) break;
      lines.unshift(match[2] ?? '#');
      start = previous;
    }
    return lines.length > 0 ? { start, lines } : undefined;
  }
}

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping edits; returns undefined when two overlap (the caller reports it, nothing is guessed). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string | undefined {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < sorted.length; i += 1) {
    const previous = sorted[i - 1] as TextEdit;
    const current = sorted[i] as TextEdit;
    if (current.start < previous.end) return undefined;
  }
  let out = '';
  let at = 0;
  for (const edit of sorted) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}
