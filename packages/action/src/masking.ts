import * as core from '@actions/core';
import { redactor, type Redactor } from '@monsync/reconciler';
import { isSecret, type Secret } from '@monsync/schema';

/**
 * Registers values with the runner's log masking, and keeps them to redact messages the action builds itself (the
 * runner masks what reaches the log, but a comment, an issue or the job summary is written through the API).
 */
export class Masker {
  readonly #values = new Set<string>();

  /** `::add-mask::` for the value and, for a multi-line value, for each line: the runner matches masks line by line. */
  add(value: string | undefined): void {
    if (value === undefined || value.trim() === '' || this.#values.has(value)) return;
    this.#values.add(value);
    core.setSecret(value);
    const lines = value.split(/\r?\n/).map((line) => line.trim());
    if (lines.length > 1) {
      for (const line of lines) {
        if (line.length >= 4 && !this.#values.has(line)) {
          this.#values.add(line);
          core.setSecret(line);
        }
      }
    }
  }

  get size(): number {
    return this.#values.size;
  }

  redact(): Redactor {
    return redactor([...this.#values]);
  }
}

/** Every `Secret` of a loaded tree, wherever it sits (vault values and passwords, certificate archives, bearer tokens). */
export function findSecrets(root: unknown): Secret[] {
  const found: Secret[] = [];
  const seen = new Set<object>();
  const walk = (value: unknown): void => {
    if (isSecret(value)) {
      found.push(value);
      return;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) value.forEach(walk);
    else for (const child of Object.values(value)) walk(child);
  };
  walk(root);
  return found;
}

/**
 * Masks the value of every secret of the tree that can be read now. One that cannot is left to the loader's
 * diagnostic, which names its variable or file; its name is returned, never a value.
 */
export function maskTreeSecrets(masker: Masker, desired: unknown): { masked: number; unavailable: string[] } {
  let masked = 0;
  const unavailable: string[] = [];
  for (const secret of findSecrets(desired)) {
    if (!secret.isAvailable()) {
      unavailable.push(secret.describe());
      continue;
    }
    masker.add(secret.reveal());
    masked += 1;
  }
  return { masked, unavailable };
}
