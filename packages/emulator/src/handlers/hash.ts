import { createHash } from 'node:crypto';
import type { Obj } from '../validate.js';

/** The `Hash` of SLAs, periods and reports: a digest of the definition, changing whenever it changes. */
export function definitionHash(fields: Obj): string {
  const { Hash: _hash, ...rest } = fields;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex').slice(0, 32);
}
