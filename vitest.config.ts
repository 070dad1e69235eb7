import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packages = ['client', 'emulator', 'schema', 'reconciler', 'cli'] as const;
// The action is a leaf: nothing imports it by name, so it gets a test project but no alias.
const projects = [...packages, 'action'] as const;

// Tests import sibling packages from source, so `pnpm test` never depends on a stale dist/.
const alias = [
  // Subpath exports come first: the package-name patterns below match only the bare names.
  { find: /^@monsync\/client\/wire$/, replacement: fileURLToPath(new URL('./packages/client/src/wire/index.ts', import.meta.url)) },
  { find: /^@monsync\/reconciler\/escape$/, replacement: fileURLToPath(new URL('./packages/reconciler/src/render/escape.ts', import.meta.url)) },
  ...packages.map((name) => ({
    find: new RegExp(`^@monsync/${name}$`),
    replacement: fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url)),
  })),
];

// What the bundlers (packages/cli/scripts/bundle.mjs, packages/action/scripts/bundle.mjs) write into their bundles:
// the released version, the same for every @monsync package (.changeset/config.json releases them together).
const { version } = JSON.parse(readFileSync(new URL('./packages/cli/package.json', import.meta.url), 'utf8')) as { version: string };

const WORKERS = Math.max(2, availableParallelism());

export default defineConfig({
  define: { __MONSYNC_VERSION__: JSON.stringify(version) },
  resolve: { alias },
  test: {
    // One module graph per worker, reused from file to file: with isolation every file imported and compiled all the
    // packages again, which took two thirds of the suite's CPU time. No file depends on a fresh graph: each starts
    // its own emulator, passes the environment to the commands it runs in-process, and puts back what it changes.
    isolate: false,
    // A worker per core, and at least two: many files mostly wait (an emulator's Retry-After, a child process, the
    // apply lock's polls), and vitest's default on two cores is one worker. As many at least as at most: a worker
    // above the minimum is stopped once idle, and that races with the restart of the workers between projects that
    // a run without isolation makes (tinypool then rejects the doubled teardown: "Terminating worker thread").
    maxWorkers: WORKERS,
    minWorkers: WORKERS,
    projects: projects.map((name) => ({
      extends: true,
      test: {
        name,
        root: `packages/${name}`,
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        // A budget against hangs, not a performance assertion: CI machines are small and tests share them.
        testTimeout: 60_000,
        hookTimeout: 60_000,
        // Type tests (`*.test-d.ts`): checked by tsc, each `@ts-expect-error` and `expectTypeOf` a test of its own.
        typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'], tsconfig: 'tsconfig.json' },
      },
    })),
  },
});
