#!/usr/bin/env node
// The package's bin, committed (not built) so that installing the workspace before its first build links it
// without "Failed to create bin" warnings. The command itself is the bundle (scripts/bundle.mjs).
import '../dist/bin.js';
