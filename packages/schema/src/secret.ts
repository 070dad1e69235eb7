import type { Hmac } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep, win32 } from 'node:path';
import { isInside, readBounded, sizeLabel } from './bounded-read.js';

/**
 * Largest secret file read: certificates, key archives and tokens are a few kilobytes, so a larger file is the wrong
 * file (a log, an archive of the repository), not a secret.
 */
export const MAX_SECRET_FILE_BYTES = 1024 * 1024;
/** `File` vault items: at most 2 MB (spec, Limits). */
export const MAX_VAULT_FILE_BYTES = 2 * 1024 * 1024;

/** Where a declaration was written: `file` relative to the config root, 1-based line and column. */
export interface SourceRef {
  file: string;
  line: number;
  column: number;
}

/** `{ fromEnv: NAME }` or `{ fromFile: path }` (path relative to the YAML file that holds the reference). */
export type SecretRef = { fromEnv: string } | { fromFile: string };

/**
 * `utf8`: text as written. `base64`: binary content sent base-64 encoded (a file is encoded; a variable already holds
 * base-64). `pem`: a certificate, sent as the service's own provider sends it, base-64 of the PEM text: a file or a
 * variable holding PEM text is encoded, a variable already holding base-64 is sent as it is.
 */
export type SecretEncoding = 'utf8' | 'base64' | 'pem';

export interface SecretOptions {
  /** Absolute folder that `fromFile` paths are relative to (the folder of the YAML file). */
  baseDir: string;
  /**
   * Config root: files are named relative to it in messages, and, when it is given, a `fromFile` path that is
   * absolute or leads outside it (by `..` or a symbolic link) is never read.
   */
  root?: string;
  /** `base64` for binary vault types (certificate archives, files), `pem` for certificates; text otherwise. */
  encoding?: SecretEncoding;
  /** Environment read by `fromEnv` at `reveal()` time; `process.env` by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Largest file `fromFile` reads; MAX_SECRET_FILE_BYTES by default. */
  maxBytes?: number;
}

const REDACTED = '[redacted]';

/** Why a `fromFile` path is refused: absolute, leading outside the config tree, or through a hidden path. */
export type FromFileProblem = 'absolute' | 'outside' | 'hidden';

/** Whether a path below `root` has a component starting with `.` (`.git/config`, `certs/.env`). */
function hiddenBelow(root: string, path: string): boolean {
  return relative(root, path)
    .split(sep)
    .some((part) => part.startsWith('.') && part !== '.' && part !== '..');
}

/**
 * Why a `fromFile` path may not be read, judged by its text alone: it is absolute, `..` leads it out of the config
 * tree, or it goes through a hidden folder or names a hidden file. Paths are relative to the folder of the YAML file
 * (`baseDir`) and must stay inside `root`: a path that could point anywhere would let a reviewed-looking change read
 * any file of the CI machine into a vault item, and hidden paths hold tools' state and credentials (a checkout keeps
 * its token in `.git/config`).
 */
export function fromFilePathProblem(path: string, baseDir: string, root: string): FromFileProblem | undefined {
  if (isAbsolute(path) || win32.isAbsolute(path)) return 'absolute';
  const target = resolve(baseDir, path);
  if (!isInside(resolve(root), target)) return 'outside';
  return hiddenBelow(resolve(root), target) ? 'hidden' : undefined;
}

/**
 * The same judgement on an existing file once symbolic links are resolved (none when it cannot be resolved: a missing
 * file is reported as missing, not as outside).
 */
export function fromFileRealProblem(absolutePath: string, root: string): 'outside' | 'hidden' | undefined {
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(absolutePath);
    realRoot = realpathSync(root);
  } catch {
    return undefined;
  }
  if (!isInside(realRoot, real)) return 'outside';
  return hiddenBelow(realRoot, real) ? 'hidden' : undefined;
}

/**
 * monsync's own variables (`MONSYNC_API_USERNAME`, `MONSYNC_API_PASSWORD`, `MONSYNC_FINGERPRINT_KEY`, every other
 * `MONSYNC_*`): a tree never reads them into the account, or one reviewed line would send monsync's credentials to a
 * monitor. `MONSYNC_SECRET_*` is the tree's own: the names `monsync pull` gives its placeholders.
 */
export function isReservedEnvName(name: string): boolean {
  return /^MONSYNC_/i.test(name) && !/^MONSYNC_SECRET_/i.test(name);
}

/** A secret that cannot be produced: the variable is unset or the file unreadable. Names the reference, never a value. */
export class SecretUnavailableError extends Error {
  readonly code = 'SECRET_UNAVAILABLE';
  readonly ref: SecretRef;
  readonly source: SourceRef | undefined;

  constructor(message: string, ref: SecretRef, source?: SourceRef, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SecretUnavailableError';
    this.ref = ref;
    this.source = source;
  }
}

/**
 * A write-only value declared by reference. It resolves lazily (`reveal()`), so validating a tree needs no secrets;
 * every way of printing it (`String()`, JSON, `util.inspect`, template literals) gives `[redacted]`.
 */
export class Secret {
  readonly ref: SecretRef;
  readonly source: SourceRef;
  readonly encoding: SecretEncoding;
  readonly #baseDir: string;
  readonly #root: string;
  readonly #confined: boolean;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #maxBytes: number;

  constructor(ref: SecretRef, source: SourceRef, options: SecretOptions) {
    this.ref = 'fromEnv' in ref ? { fromEnv: ref.fromEnv } : { fromFile: ref.fromFile };
    this.source = { ...source };
    this.encoding = options.encoding ?? 'utf8';
    this.#baseDir = options.baseDir;
    this.#root = options.root ?? options.baseDir;
    this.#confined = options.root !== undefined;
    this.#env = options.env ?? process.env;
    this.#maxBytes = options.maxBytes ?? MAX_SECRET_FILE_BYTES;
  }

  /** `env SHOP_PASSWORD` or `file certs/client.pfx`: safe to print. */
  describe(): string {
    return 'fromEnv' in this.ref ? `env ${this.ref.fromEnv}` : `file ${this.displayPath()}`;
  }

  /** Absolute path of a `fromFile` secret, `undefined` for `fromEnv`. */
  filePath(): string | undefined {
    return 'fromFile' in this.ref ? resolve(this.#baseDir, this.ref.fromFile) : undefined;
  }

  /** Whether `reveal()` would succeed now, without producing the value. */
  isAvailable(): boolean {
    try {
      this.reveal();
      return true;
    } catch (error) {
      if (error instanceof SecretUnavailableError) return false;
      throw error;
    }
  }

  /** The value. Throws `SecretUnavailableError` naming the variable or file when it cannot be read. */
  reveal(): string {
    const at = `${this.source.file}:${this.source.line}:${this.source.column}`;
    if ('fromEnv' in this.ref) {
      const name = this.ref.fromEnv;
      if (isReservedEnvName(name)) {
        throw new SecretUnavailableError(`${at}: environment variable ${name} is one of monsync's own and is never read into the account`, this.ref, this.source);
      }
      const value = this.#env[name];
      if (value === undefined || value === '') {
        throw new SecretUnavailableError(
          `${at}: environment variable ${name} is not set; set it before running monsync (the secret is read only when values are needed)`,
          this.ref,
          this.source,
        );
      }
      if (this.encoding === 'pem' && value.includes('-----BEGIN')) return Buffer.from(value, 'utf8').toString('base64');
      return this.encoding === 'utf8' ? value : value.replace(/\s+/g, '');
    }
    const path = resolve(this.#baseDir, this.ref.fromFile);
    const problem = this.#confined ? (fromFilePathProblem(this.ref.fromFile, this.#baseDir, this.#root) ?? fromFileRealProblem(path, this.#root)) : undefined;
    if (problem !== undefined) {
      const where = problem === 'hidden' ? 'in a hidden folder or a hidden file' : 'outside the config tree';
      throw new SecretUnavailableError(`${at}: secret file ${this.ref.fromFile} is ${where} and is not read; name a file inside the tree, relative to the YAML file`, this.ref, this.source);
    }
    // Judged before a byte is read: a device or a pipe would never end, a huge file is not a secret.
    const read = readBounded(path, this.#maxBytes);
    if (!('bytes' in read)) {
      const reason =
        read.refused === 'not-regular' ? `it is ${read.what}, not a file` : read.refused === 'too-large' ? `it is larger than ${sizeLabel(this.#maxBytes)}` : `it cannot be read (${read.code})`;
      throw new SecretUnavailableError(`${at}: secret file ${this.displayPath()} is not read: ${reason}; the path is relative to the YAML file that names it`, this.ref, this.source);
    }
    const content = read.bytes;
    if (this.encoding !== 'utf8') return content.toString('base64');
    // Text secrets kept in files usually end with the editor's newline, which is not part of the value.
    return content.toString('utf8').replace(/\r?\n$/, '');
  }

  /** Keyed fingerprint of the value (HMAC-SHA-256 hex), for change detection without storing the value. */
  fingerprint(key: string | Uint8Array): string {
    return fingerprintSecret(this.reveal(), key);
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Secret(${this.describe()}) ${REDACTED}`;
  }

  get [Symbol.toStringTag](): string {
    return 'Secret';
  }

  private displayPath(): string {
    const path = this.filePath() ?? '';
    const rel = relative(this.#root, path);
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel.split('\\').join('/');
  }
}

export function isSecret(value: unknown): value is Secret {
  return value instanceof Secret;
}

/**
 * node:crypto's createHmac, the module loaded on first use (Node 20.16+): loading it takes about 5 ms, which every
 * `monsync validate` paid without computing a fingerprint.
 */
function createHmac(algorithm: string, key: string | Uint8Array): Hmac {
  return process.getBuiltinModule('node:crypto').createHmac(algorithm, key);
}

/** HMAC-SHA-256 (hex) of a secret value under `key` (docs/architecture.md, Identity, ownership and secrets): recorded as `monsync:fp=<hex>` in `Notes`. */
export function fingerprintSecret(value: string | Uint8Array, key: string | Uint8Array): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

const DERIVATION_LABEL = 'monsync fingerprint key v1';

/**
 * The fingerprint key: `MONSYNC_FINGERPRINT_KEY` when given, otherwise derived one-way from the API credentials so
 * that every machine with the same credentials computes the same fingerprints and nobody learns them from a marker.
 */
export function deriveFingerprintKey(input: { fingerprintKey?: string | undefined; apiUser: string; apiPassword: string }): string {
  if (input.fingerprintKey !== undefined && input.fingerprintKey !== '') return input.fingerprintKey;
  return createHmac('sha256', DERIVATION_LABEL).update(`${input.apiUser}\u0000${input.apiPassword}`).digest('hex');
}
