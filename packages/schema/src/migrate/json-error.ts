/**
 * Where a JSON text first goes wrong, and what is found there. JSON.parse says "is not valid JSON" without a
 * position on Node 20 and quotes the text around the fault (which could hold a value we must not print), so
 * this small scanner finds the offset itself. Only called once JSON.parse has already failed.
 */
export function findJsonError(text: string): { offset: number; found: string } {
  let at = 0;
  const fail = (): never => {
    throw new JsonScanError(at);
  };
  const space = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text[at] as string)) at += 1;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, at)) at += word.length;
    else fail();
  };
  const string = (): void => {
    if (text[at] !== '"') fail();
    at += 1;
    while (at < text.length && text[at] !== '"') {
      const char = text[at] as string;
      if (char < ' ') fail();
      if (char === '\\') {
        at += 1;
        const escape = text[at];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail();
          at += 4;
        } else if (escape === undefined || !'"\\/bfnrt'.includes(escape)) fail();
      }
      at += 1;
    }
    if (at >= text.length) fail();
    at += 1;
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!match) fail();
    at += (match as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === '{') {
      at += 1;
      space();
      if (text[at] === '}') {
        at += 1;
        return;
      }
      for (;;) {
        space();
        string();
        space();
        if (text[at] !== ':') fail();
        at += 1;
        value();
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === '}') {
          at += 1;
          return;
        } else fail();
      }
    }
    if (char === '[') {
      at += 1;
      space();
      if (text[at] === ']') {
        at += 1;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === ']') {
          at += 1;
          return;
        } else fail();
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    return number();
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) at = 1;
    value();
    space();
    if (at < text.length) fail();
  } catch (error) {
    if (!(error instanceof JsonScanError)) throw error;
  }
  const char = text[at];
  return { offset: at, found: char === undefined ? 'the end of the file' : JSON.stringify(char) };
}

/** Unwinds the scanner at the first fault; never leaves findJsonError. */
class JsonScanError extends Error {
  readonly code = 'MIGRATE_JSON_ERROR';

  constructor(readonly offset: number) {
    super(`not valid JSON at offset ${offset}`);
  }
}
