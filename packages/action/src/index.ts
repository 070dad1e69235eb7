import { run } from './main.js';

// The bundle's entry point does nothing but run, so tests import run() from main.ts without side effects.
await run();
