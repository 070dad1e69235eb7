import type { OptionSpecs, ParsedValues } from './args.js';
import type { CliIo } from './io.js';

export interface GlobalFlags {
  /** `--config DIR` as given (not resolved). */
  config: string | undefined;
  verbose: boolean;
}

export interface CommandContext {
  io: CliIo;
  values: ParsedValues;
  positionals: string[];
  global: GlobalFlags;
}

export interface CommandSpec {
  name: string;
  /** One line, shown in the command list. */
  summary: string;
  /** Usage line after `monsync `. */
  usage: string;
  /** Paragraphs shown under the usage line. */
  description?: string;
  options: OptionSpecs;
  /** `complete`: what shell completion offers for them (files, or these words). */
  positionals?: { min: number; max: number; names: string; complete?: 'file' | readonly string[] };
  examples: string[];
  /** Commands that take their flags verbatim (`emulator` forwards them to the emulator). */
  passThrough?: boolean;
  run(context: CommandContext): Promise<number>;
}
