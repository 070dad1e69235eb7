import type { CliIo } from './io.js';
import { plainText } from '@monsync/reconciler/escape';

/** Prints the `{ fromEnv }` placeholders a command wrote in place of secrets the API never returns (names only). */
export function writeSecretPlaceholders(io: Pick<CliIo, 'stdout'>, secrets: readonly { env: string; where: string }[]): void {
  if (secrets.length === 0) return;
  io.stdout.write(`\nSecrets cannot be read back from the API. Set these variables (or change the references to { fromFile: ... }) before planning:\n`);
  const width = Math.max(...secrets.map((secret) => secret.env.length));
  for (const secret of secrets) io.stdout.write(`  ${secret.env.padEnd(width)}  ${plainText(secret.where)}\n`);
}

/** Prints the settings a pull left out because the API never returns them (an attached integration's write-only ones). */
export function writeUnreadSettings(io: Pick<CliIo, 'stdout'>, unread: readonly { where: string; fields: readonly string[] }[]): void {
  if (unread.length === 0) return;
  io.stdout.write(`\nSettings the API never returns were left out, not guessed (declare them to choose; they are sent when attached and with --rotate):\n`);
  for (const entry of unread) io.stdout.write(`  ${plainText(entry.where)}: ${entry.fields.map(plainText).join(', ')}\n`);
}
