#!/usr/bin/env node
// The package's bin, committed (not built) so that installing the workspace before its first build links it
// without "Failed to create bin" warnings. The command itself is the bundle (scripts/bundle.mjs).
import module from 'node:module';

// Node 22.1+ keeps the compiled bundle on disk between runs (a no-op where NODE_DISABLE_COMPILE_CACHE is set);
// Node 20 has no such cache and compiles it on every start.
module.enableCompileCache?.();
await import('../dist/bin.js');
