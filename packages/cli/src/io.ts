import type { Interrupts } from './interrupt.js';

/** Where a command writes and what it knows of its surroundings; injected so tests run commands in-process. */
export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Whether stdout is an interactive terminal (colour, live progress line). */
  isTTY: boolean;
  /** `--no-color`: no colour whatever the terminal and NO_COLOR say. */
  noColor?: boolean;
  /** Ends long-running commands (`emulator`) cleanly; the bin wires SIGINT and SIGTERM to it. */
  signal?: AbortSignal;
  /** Ctrl-C and SIGTERM while apply writes (`interrupt.ts`); the bin gives `apply` the process's. */
  interrupts?: Interrupts;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY) && Boolean(process.stderr.isTTY),
  };
}

/** Colour only on a terminal, never with --no-color or NO_COLOR (https://no-color.org: any non-empty value). */
/** A `--json` result: one indented JSON document, newline-terminated, the one form every command prints. */
export function jsonDocument(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function useColor(io: CliIo): boolean {
  if (io.noColor === true) return false;
  const noColor = io.env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  return io.isTTY && io.env['TERM'] !== 'dumb';
}

/** CI or no terminal: progress as plain lines instead of a rewritten line. */
export function isInteractive(io: CliIo): boolean {
  const ci = io.env['CI'];
  const inCi = ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
  return io.isTTY && !inCi;
}

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

export function style(enabled: boolean): Style {
  if (!enabled) return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };
}

/** Collects output in memory: what tests and the demo pass as `io`. */
export interface BufferedIo extends CliIo {
  out(): string;
  err(): string;
}

export function bufferedIo(options: { env?: Record<string, string | undefined>; cwd?: string; isTTY?: boolean; signal?: AbortSignal } = {}): BufferedIo {
  let out = '';
  let err = '';
  return {
    stdout: { write: (chunk: string) => { out += chunk; return true; } },
    stderr: { write: (chunk: string) => { err += chunk; return true; } },
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    isTTY: options.isTTY ?? false,
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    out: () => out,
    err: () => err,
  };
}
