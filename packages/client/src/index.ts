export { formatTimestamp, isTimestamp, normalizeTimestamp, parseTimestamp } from './timestamp.js';
