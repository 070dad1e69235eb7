import { randomBytes } from 'node:crypto';
import * as core from '@actions/core';

/**
 * Writes text that holds what monsync did not write itself (a plan) to the log with the runner's workflow commands
 * off: `::stop-commands::` with a fresh random token, which nothing in the text can guess to turn them on again. The
 * text is escaped already (`plainText`: no line of it starts with `::`); this keeps the runner out of it all the same.
 */
export function logInert(text: string): void {
  const token = randomBytes(16).toString('hex');
  core.info(`::stop-commands::${token}`);
  core.info(text.replace(/\n$/, ''));
  core.info(`::${token}::`);
}
