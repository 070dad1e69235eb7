/**
 * The files of a config tree on disk: which are config files, and their text. Every path is judged by what it is
 * before a byte of it is read (docs/architecture.md, The config format): a symbolic link is followed when it leads
 * inside the tree and refused, naming it, when it does not; a loop of links, a pipe or a device is refused; nothing
 * refused is ever read, so no diagnostic can quote it.
 */
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import { fileKind, isInside, readBounded } from './bounded-read.js';
import { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode } from './diagnostics.js';
import { MAX_FILE_BYTES } from './yaml-source.js';

export const SETTINGS_FILE = 'monsync.yaml';

/** A file of the tree given as text (for editors and tests); `file` is relative to the root, with `/`. */
export interface ConfigText {
  file: string;
  text: string;
}

export function fileDiagnostic(code: DiagnosticCode, file: string, message: string, hint?: string): Diagnostic {
  const d: Diagnostic = { severity: DIAGNOSTIC_CODES[code].severity, code, message, file, line: 1, column: 1 };
  if (hint !== undefined) d.hint = hint;
  return d;
}

export const tooLarge = (file: string) =>
  fileDiagnostic('FILE_TOO_LARGE', file, `the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB and is not read`, 'split it into several files');
export const missingSettings = () =>
  fileDiagnostic('MISSING_SETTINGS_FILE', SETTINGS_FILE, 'no monsync.yaml at the root of the config folder', 'create monsync.yaml with `apiVersion: monsync/v1` and a `manage:` mapping');

/** A file or folder monsync refused without reading: no formatter may read it again to quote it. */
function refused(code: DiagnosticCode, file: string, message: string, hint?: string): Diagnostic {
  const d = fileDiagnostic(code, file, message, hint);
  d.redactSource = true;
  return d;
}

function unreadable(file: string, code: string): Diagnostic {
  return fileDiagnostic('FILE_UNREADABLE', file, `the file cannot be read (${code})`);
}

/** `x.yml`, `x.YAML`: a name that looks like YAML but is not read (only `*.yaml` is). */
const YAML_LOOK_ALIKE = /\.ya?ml$/i;
const isConfigName = (name: string) => name.endsWith('.yaml');

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A config file found: its path relative to the root (through links, as the user sees it) and the path to read. */
interface Found {
  rel: string;
  path: string;
}

/**
 * Walks the tree. `real` is the real path of `dir`, known without a system call until a link is crossed; `chain` the
 * real paths of the folders being walked, so that a link back to one of them is a loop, not an endless walk.
 */
class Walk {
  readonly found: Found[] = [];
  readonly diagnostics: Diagnostic[] = [];
  /** Real path of each config file read, so that one reached by two paths is not declared twice. */
  readonly #seen = new Map<string, string>();

  constructor(readonly realRoot: string) {}

  folder(dir: string, real: string, prefix: string, chain: readonly string[]): void {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      this.diagnostics.push(fileDiagnostic('CONFIG_DIR_UNREADABLE', prefix, `the folder ${prefix} cannot be read (${code})`));
      return;
    }
    for (const entry of entries) {
      // Hidden entries (.git, .github, .shared) and node_modules are never walked; a link may lead into them.
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) this.link(path, rel, entry.name, [...chain, real]);
      else if (entry.isDirectory()) this.folder(path, join(real, entry.name), rel, [...chain, real]);
      else this.file(path, join(real, entry.name), rel, entry.name, entry.isFile() ? undefined : entry);
    }
  }

  /** A config file (by name) that is a regular file, or the refusal of what it is instead. */
  private file(path: string, real: string, rel: string, name: string, other: Dirent | Stats | undefined): void {
    if (!isConfigName(name)) {
      if (YAML_LOOK_ALIKE.test(name)) {
        this.diagnostics.push(fileDiagnostic('YAML_EXTENSION', rel, 'the file is not read: config files end in `.yaml` (lowercase)', `rename it to ${JSON.stringify(rel.replace(YAML_LOOK_ALIKE, '.yaml'))} to load it, or to another extension if it is not monsync config`));
      }
      return;
    }
    if (other !== undefined) {
      this.diagnostics.push(refused('CONFIG_FILE_NOT_REGULAR', rel, `the path is ${fileKind(other)}, not a file, so it is not read`, 'config files are regular files; remove it or give it another name'));
      return;
    }
    const first = this.#seen.get(real);
    if (first !== undefined) {
      this.diagnostics.push(refused('CONFIG_FILE_READ_TWICE', rel, `the file is the same file as ${first} (through a symbolic link), so it is not read twice: everything in it would be declared twice`, 'keep one path to the file: remove one of the links'));
      return;
    }
    this.#seen.set(real, rel);
    this.found.push({ rel, path });
  }

  /** A symbolic link: followed when it leads inside the tree, refused (naming it) otherwise. */
  private link(path: string, rel: string, name: string, chain: readonly string[]): void {
    let real: string;
    let stat: Stats;
    try {
      real = realpathSync(path);
      stat = statSync(real);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      if (code === 'ELOOP') {
        this.diagnostics.push(refused('CONFIG_LINK_LOOP', rel, 'the symbolic link is part of a loop of links, so it leads nowhere and is not read', 'point the link at a file or folder, not at itself through other links'));
      } else if (isConfigName(name)) this.diagnostics.push(unreadable(rel, code));
      else {
        this.diagnostics.push(refused('CONFIG_LINK_DANGLING', rel, `the symbolic link leads nowhere (${code}): if it was meant to name a folder of config files, none of them is read`, 'fix the link or remove it'));
      }
      return;
    }
    const folder = stat.isDirectory();
    if (!folder && !isConfigName(name)) {
      this.file(path, real, rel, name, undefined); // not config: only the look-alike warning applies
      return;
    }
    if (!isInside(this.realRoot, real)) {
      const what = folder ? 'folder' : 'file';
      this.diagnostics.push(
        refused(
          'CONFIG_FILE_OUTSIDE_TREE',
          rel,
          `the ${what} is a symbolic link that leads outside the config tree, so ${folder ? 'none of its files is' : 'it is not'} read`,
          'move the shared file into the config tree (a hidden folder such as .shared/ is not read on its own) and link to it there',
        ),
      );
      return;
    }
    if (folder) {
      if (chain.includes(real)) {
        this.diagnostics.push(refused('CONFIG_LINK_LOOP', rel, 'the folder is a symbolic link to a folder that holds it, so following it would never end; it is not read', 'link to a folder beside it or below it instead'));
      } else this.folder(path, real, rel, chain);
      return;
    }
    this.file(path, real, rel, name, stat.isFile() ? undefined : stat);
  }
}

/** Config files below `root` as `readConfigTree` finds them, with what it said about the tree (no file is read). */
function walkTree(root: string): { found: Found[]; diagnostics: Diagnostic[] } {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    if (!statSync(realRoot).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { found: [], diagnostics: [fileDiagnostic('CONFIG_DIR_UNREADABLE', '.', `the config folder ${root} cannot be read (${code})`, 'pass the folder that holds monsync.yaml')] };
  }
  const walk = new Walk(realRoot);
  walk.folder(root, realRoot, '', []);
  const settings = walk.found.find((f) => f.rel === SETTINGS_FILE);
  const rest = walk.found.filter((f) => f.rel !== SETTINGS_FILE).sort((a, b) => byCodePoint(a.rel, b.rel));
  if (settings === undefined) walk.diagnostics.push(missingSettings());
  return { found: settings === undefined ? rest : [settings, ...rest], diagnostics: walk.diagnostics };
}

/** Config files below `root`: `monsync.yaml` first, then the rest in code-point order of their relative paths. */
export function discoverConfigFiles(root: string): string[] {
  return walkTree(root).found.map((f) => f.rel);
}

export interface TreeRead {
  /** The config files found, relative to the root, `monsync.yaml` first. */
  files: string[];
  /** The text of each file that could be read (a refused file has none). */
  texts: ConfigText[];
  diagnostics: Diagnostic[];
}

/** Finds the config files below `root` and reads each that may be read, at most MAX_FILE_BYTES, as UTF-8. */
export function readConfigTree(root: string): TreeRead {
  const { found, diagnostics } = walkTree(root);
  const texts: ConfigText[] = [];
  for (const { rel, path } of found) {
    const read = readBounded(path, MAX_FILE_BYTES);
    if ('bytes' in read) {
      const decoded = decodeUtf8(rel, read.bytes);
      if ('text' in decoded) texts.push({ file: rel, text: decoded.text });
      else diagnostics.push(decoded.diagnostic);
    } else if (read.refused === 'too-large') diagnostics.push(tooLarge(rel));
    else if (read.refused === 'not-regular') diagnostics.push(refused('CONFIG_FILE_NOT_REGULAR', rel, `the path is ${read.what}, not a file, so it is not read`));
    else diagnostics.push(unreadable(rel, read.code));
  }
  return { files: found.map((f) => f.rel), texts, diagnostics };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The file's text, or where its first byte sequence that is not UTF-8 is. Decoding leniently would replace such a
 * sequence with U+FFFD, and the API would receive a value nobody wrote.
 */
export function decodeUtf8(file: string, bytes: Uint8Array): { text: string } | { diagnostic: Diagnostic } {
  try {
    const text = UTF8.decode(bytes);
    return { text };
  } catch {
    const at = firstInvalidUtf8(bytes);
    const before = new TextDecoder('utf-8').decode(bytes.subarray(0, at));
    const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
    const line = (before.match(/\r\n|\r|\n/g) ?? []).length + 1;
    const d = fileDiagnostic('INVALID_UTF8', file, `the file is not valid UTF-8: byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} at offset ${at} starts no UTF-8 character`, 'save the file as UTF-8 (editors offer "Save with encoding")');
    d.line = line;
    d.column = before.length - lineStart + 1;
    return { diagnostic: d };
  }
}

/** Offset of the first byte that does not continue a well-formed UTF-8 sequence (a shortest-form, non-surrogate one). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    if (length > 1 && !utf8Ok(bytes.subarray(i, i + length))) return i;
    i += length;
  }
  return bytes.length;
}

function utf8Ok(sequence: Uint8Array): boolean {
  try {
    UTF8.decode(sequence);
    return true;
  } catch {
    return false;
  }
}
