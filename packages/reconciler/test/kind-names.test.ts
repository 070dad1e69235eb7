/**
 * The kind registry stays the one place kinds are listed: a kind's name, written as a string literal, may appear only
 * in the registry (`packages/schema/src/kinds.ts`, `packages/reconciler/src/kinds/index.ts`) and in that kind's own
 * module (`packages/reconciler/src/kinds/<kind>.ts`). Anywhere else, a list of kinds or a branch on one kind has
 * crept back: derive it from the registry, or move the behaviour into the kind's module.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { KIND_ENTRIES } from '@monsync/schema';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SCANNED = ['packages/schema/src', 'packages/reconciler/src', 'packages/cli/src', 'packages/action/src'];
const REGISTRY = ['packages/schema/src/kinds.ts', 'packages/reconciler/src/kinds/index.ts'];

/** At most five, each with its reason. */
const ALLOWED: Readonly<Record<string, string>> = {
  'packages/reconciler/src/test-utils/index.ts': 'builders for tests derive each object\'s GUID from its kind name, so golden files stay stable',
  'packages/reconciler/src/lock/record.ts': 'the apply lock records who holds it; its `operator` field (MONSYNC_OPERATOR) is a person, not the operator kind',
};

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every string literal and literal part of a template in `text`, with its line (comments are not literals). */
function literals(text: string): { value: string; line: number }[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const found: { value: string; line: number }[] = [];
  const line = (pos: number) => text.slice(0, pos).split('\n').length;
  // Braces opened inside `${...}` of a template: the brace that closes the substitution continues the template.
  const braces: ('block' | 'template')[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.OpenBraceToken) braces.push('block');
    else if (token === ts.SyntaxKind.TemplateHead) braces.push('template');
    else if (token === ts.SyntaxKind.CloseBraceToken && braces.pop() === 'template') {
      if (scanner.reScanTemplateToken(false) === ts.SyntaxKind.TemplateMiddle) braces.push('template');
      continue;
    }
    if (token === ts.SyntaxKind.StringLiteral || token === ts.SyntaxKind.NoSubstitutionTemplateLiteral) found.push({ value: scanner.getTokenValue(), line: line(scanner.getTokenStart()) });
  }
  return found;
}

function misplacedKindNames(): string[] {
  const names = new Set<string>(KIND_ENTRIES.map((entry) => entry.kind));
  const found: string[] = [];
  for (const file of SCANNED.flatMap(sourceFiles)) {
    if (REGISTRY.includes(file) || file in ALLOWED) continue;
    for (const { value, line } of literals(readFileSync(join(ROOT, file), 'utf8'))) {
      if (!names.has(value) || file === `packages/reconciler/src/kinds/${kebab(value)}.ts`) continue;
      found.push(`${file}:${line}: '${value}'`);
    }
  }
  return found;
}

describe('kind names', () => {
  it('are written only in the kind registry and in each kind\'s own module', () => {
    expect(misplacedKindNames()).toEqual([]);
  });

  it('are found when written elsewhere (the check itself sees literals, not comments)', () => {
    const text = "if (x) { y(`${a}:${{ b: 1 }.b}`); }\nconst a = 'monitor'; // 'sla'\n/* 'vaultSection' */ const b = `vaultItem`;";
    expect(literals(text)).toEqual([
      { value: 'monitor', line: 2 },
      { value: 'vaultItem', line: 3 },
    ]);
  });

  it('keep the allow-list short and explained', () => {
    expect(Object.keys(ALLOWED).length).toBeLessThanOrEqual(5);
    for (const reason of Object.values(ALLOWED)) expect(reason.length).toBeGreaterThan(20);
  });
});
