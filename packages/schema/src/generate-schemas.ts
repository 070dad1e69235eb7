/**
 * `pnpm --filter @monsync/schema generate`: writes the committed JSON Schemas in `schemas/` from the TypeBox
 * sources. Run from the built package (dist/generate-schemas.js); the repository root is two levels up.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSchemas } from './render-schemas.js';

const target = process.argv[2] ?? fileURLToPath(new URL('../../../schemas/', import.meta.url));
mkdirSync(target, { recursive: true });
for (const [name, text] of Object.entries(renderSchemas())) {
  writeFileSync(join(target, name), text);
  console.log(`wrote ${join(target, name)}`);
}
