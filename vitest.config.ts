import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packages = ['client', 'emulator', 'schema', 'reconciler', 'cli'] as const;
// The action is a leaf: nothing imports it by name, so it gets a test project but no alias.
const projects = [...packages, 'action'] as const;

// Tests import sibling packages from source, so `pnpm test` never depends on a stale dist/.
const alias = packages.map((name) => ({
  find: new RegExp(`^@monsync/${name}$`),
  replacement: fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url)),
}));

export default defineConfig({
  resolve: { alias },
  test: {
    projects: projects.map((name) => ({
      extends: true,
      test: {
        name,
        root: `packages/${name}`,
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        // A budget against hangs, not a performance assertion: CI machines are small and tests share them.
        testTimeout: 60_000,
        hookTimeout: 60_000,
      },
    })),
  },
});
