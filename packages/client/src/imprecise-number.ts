/**
 * Integers in a JSON text that a JavaScript number cannot hold exactly. `JSON.parse` rounds 9007199254740993 to
 * ...992 without a word (Node 20 has no reviver that sees the source text), and monsync would then compare, plan and
 * send back a value the service never had. So every 2xx body is scanned for them first: an answer holding one is an
 * error, and nothing is planned from it.
 */

/** An integer in a JSON text that JSON.parse rounds: how many digits it has and the key it is the value of, if any. */
export interface ImpreciseNumber {
  digits: number;
  key: string | undefined;
}

const LONG_DIGIT_RUN = /\d{16}/;

/**
 * The first integer literal outside strings that would not come back as written (beyond 2^53, where JSON.parse
 * rounds), or undefined. A text
 * without 16 digits in a row anywhere (nearly every answer) is let through by one regular-expression test.
 */
export function firstImpreciseInteger(text: string): ImpreciseNumber | undefined {
  if (!LONG_DIGIT_RUN.test(text)) return undefined;
  let key: string | undefined;
  let lastString: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      lastString = text.slice(i + 1, end);
      i = end;
    } else if (c === 0x3a /* : */) {
      key = lastString;
    } else if (c === 0x2c /* , */ || c === 0x5b /* [ */ || c === 0x7b /* { */) {
      // A value in an array has no key of its own; an object's next member names its own.
      key = undefined;
      lastString = undefined;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end += 1;
      const token = text.slice(i, end);
      if (/^-?\d{16,}$/.test(token) && !holdsExactly(token)) return { digits: token.replace('-', '').length, key };
      i = end - 1;
    }
  }
  return undefined;
}

/**
 * Whether an integer literal comes back as written once parsed and written again (JSON.stringify writes the shortest
 * text of a double): 22539806044415150 does, though the double is ...152; 9007199254740993 comes back as ...992.
 */
function holdsExactly(token: string): boolean {
  return String(Number(token)) === token;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i += 1;
    else if (c === 0x22) return i;
  }
  return text.length;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}
