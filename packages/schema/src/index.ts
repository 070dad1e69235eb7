export * from './migrate/index.js';
