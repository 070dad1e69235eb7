// The service's published wire format (names, values, renames from older spellings); no I/O, no HTTP client.
export * from './enums.js';
export * from './renames.js';
export { publishedReader, toPublished } from './read.js';
export { SERVER_ADDED_ENTRIES, serverAddedKeys, type ServerAddedEntries } from './server-filled.js';
export { OPERATOR_WRITE_ONLY_FIELDS, SPECIFIED_COMPANION_FIELDS, withSpecifiedCompanions } from './operator-fields.js';
