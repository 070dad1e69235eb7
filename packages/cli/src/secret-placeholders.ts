import type { CliIo } from './io.js';
import { plainText } from '@monsync/reconciler/escape';

/** Prints the `{ fromEnv }` placeholders a command wrote in place of secrets the API never returns (names only). */
export function writeSecretPlaceholders(io: Pick<CliIo, 'stdout'>, secrets: readonly { env: string; where: string }[]): void {
  if (secrets.length === 0) return;
  io.stdout.write(`\nSecrets cannot be read back from the API. Set these variables (or change the references to { fromFile: ... }) before planning:\n`);
  const width = Math.max(...secrets.map((secret) => secret.env.length));
  for (const secret of secrets) io.stdout.write(`  ${secret.env.padEnd(width)}  ${plainText(secret.where)}\n`);
}
