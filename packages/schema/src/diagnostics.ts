export type Severity = 'error' | 'warning';

/** A finding about a config file. Positions are 1-based; `file` is relative to the config root. */
export interface Diagnostic {
  severity: Severity;
  /** SCREAMING_SNAKE code, listed in `DIAGNOSTIC_CODES`. */
  code: string;
  message: string;
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  hint?: string;
  /** The line holds a literal secret: formatters must not quote it. */
  redactSource?: boolean;
  /** Policy findings: the rule's name (`policy:` in monsync.yaml). */
  rule?: string;
}

/** Every code the loader emits, with its severity and what it means (the README's table is built from this). */
export const DIAGNOSTIC_CODES = {
  // Files and YAML
  CONFIG_DIR_UNREADABLE: { severity: 'error', summary: 'The config folder (or a folder below it) does not exist or cannot be read.' },
  MISSING_SETTINGS_FILE: { severity: 'error', summary: 'The config folder has no monsync.yaml at its root.' },
  FILE_TOO_LARGE: { severity: 'error', summary: 'A YAML file is larger than 5 MB.' },
  FILE_UNREADABLE: { severity: 'error', summary: 'A YAML file cannot be read.' },
  CONFIG_FILE_OUTSIDE_TREE: { severity: 'error', summary: 'A YAML file or a folder of the tree is a symbolic link that leads outside the config tree; it is not read (its lines would be quoted, and a folder\'s monitors would go undeclared).' },
  CONFIG_FILE_NOT_REGULAR: { severity: 'error', summary: 'A `*.yaml` path is a named pipe, a socket, a device or a folder, not a file; it is never opened for reading.' },
  CONFIG_FILE_READ_TWICE: { severity: 'error', summary: 'A YAML file is reached by two paths of the tree (through a symbolic link): it is read once, and the second path is an error.' },
  CONFIG_LINK_LOOP: { severity: 'error', summary: 'A symbolic link of the tree is part of a loop (of links, or a folder link to a folder that holds it).' },
  CONFIG_LINK_DANGLING: { severity: 'error', summary: 'A symbolic link of the tree leads nowhere: if it named a folder of config files, none of them would be read.' },
  YAML_EXTENSION: { severity: 'warning', summary: 'A file named `*.yml` or `*.YAML` is not read: only `*.yaml` files are config; rename it.' },
  YAML_SYNTAX: { severity: 'error', summary: 'The file is not valid YAML.' },
  YAML_WARNING: { severity: 'warning', summary: 'The YAML parser warns about something (e.g. an unresolved tag).' },
  DUPLICATE_YAML_KEY: { severity: 'error', summary: 'The same key appears twice in one mapping.' },
  MULTIPLE_DOCUMENTS: { severity: 'error', summary: 'A file holds more than one YAML document (`---`).' },
  YAML_ALIAS: { severity: 'error', summary: 'An alias (`*name`) is used; aliases are off (alias bombs, hidden sharing).' },
  MERGE_KEY: { severity: 'error', summary: 'A merge key (`<<`) is used; merge keys are off.' },
  FORBIDDEN_KEY: { severity: 'error', summary: 'A `__proto__`, `constructor` or `prototype` key.' },
  NON_STRING_KEY: { severity: 'error', summary: 'A mapping key is not a plain scalar (e.g. a list or a null key).' },
  ROOT_NOT_MAPPING: { severity: 'error', summary: 'The document is not a mapping of top-level keys.' },
  YAML_TAG: { severity: 'error', summary: 'A YAML tag other than the plain-data ones (`!!binary`, `!!timestamp`, `!!set`, a custom `!tag`): its value would be sent as something else.' },
  YAML_TOO_DEEP: { severity: 'error', summary: 'Mappings and lists nested more than 64 levels deep.' },
  INVALID_UTF8: { severity: 'error', summary: 'The file is not valid UTF-8 (a byte sequence would be replaced, changing the value silently).' },
  FILE_PARSED_EMPTY: { severity: 'error', summary: 'A file with content (not only comments) parses to nothing, e.g. a line-ending style the parser misreads.' },
  NON_FINITE_NUMBER: { severity: 'error', summary: 'A YAML special float (`.nan`, `.inf`, or a number too large for a double): not a JSON number, it cannot be sent.' },
  IMPRECISE_NUMBER: { severity: 'error', summary: 'A number a double cannot hold as written (an integer beyond 2^53 such as `9007199254740993`, a 30-digit number, `0.10000000000000000001`): it would be sent as another number. Quote an identifier as a string.' },
  NUL_CHARACTER: { severity: 'error', summary: 'A string or a key holds a NUL character (U+0000, raw or as `\\0`): the service\'s text fields cannot hold it.' },
  EMPTY_FILE: { severity: 'warning', summary: 'A resource file declares nothing (empty, only comments, `null` or `{}`): what it used to declare would be planned as deletes in pruned kinds.' },
  // Schema
  UNKNOWN_FIELD: { severity: 'error', summary: 'An unknown camelCase (monsync) key; names the likely field when there is one.' },
  UNKNOWN_API_FIELD: {
    severity: 'error',
    summary: "A PascalCase field that the service's published definition of the object does not list; names the likely field (`allowUnknown.fields` in monsync.yaml lets a field the service added after this release through).",
  },
  LIKELY_TYPO: { severity: 'warning', summary: 'An unknown PascalCase field of an object whose fields are not all published (it passes through) that is a near miss of a known one.' },
  MISSING_FIELD: { severity: 'error', summary: 'A required field is missing (reported at the mapping that lacks it).' },
  TYPE_MISMATCH: { severity: 'error', summary: 'A value has the wrong type (e.g. a string where a boolean is expected).' },
  INVALID_ENUM: {
    severity: 'error',
    summary: 'A value is not one of the values the published definition allows; names the closest (`allowUnknown.values` in monsync.yaml lets a value the service added after this release through).',
  },
  INVALID_VALUE: { severity: 'error', summary: 'A value matches none of the accepted forms.' },
  INVALID_FORMAT: { severity: 'error', summary: 'A string does not have the expected format.' },
  INVALID_TIMESTAMP: { severity: 'error', summary: 'A timestamp is not `YYYY-MM-DDTHH:MM:SS` or not a real date and time.' },
  INVALID_TIME: { severity: 'error', summary: 'A time of day is not `HH:MM:SS` (reports) or `HH:mm` (duty schedules).' },
  INVALID_EMAIL: { severity: 'error', summary: 'An e-mail address is not valid.' },
  INVALID_IGNORE_PATTERN: { severity: 'error', summary: 'An ignore or protect pattern is not `kind:glob` with a singular kind.' },
  INVALID_REFERENCE: { severity: 'error', summary: 'A vault reference is not `Section/Item`, or an env var name is not valid.' },
  INVALID_GUID: { severity: 'error', summary: 'A GUID field (a pin such as `MonitorGuid`, or a reference such as `DashboardGuid` or a report recipient) is not 8-4-4-4-12 hexadecimal digits; caught before any request.' },
  INVALID_KEY: { severity: 'error', summary: 'A scheduled report `key` has characters other than letters, digits, `.`, `_`, `-`.' },
  OUT_OF_RANGE: { severity: 'error', summary: 'A number is out of its range (e.g. a percentage outside 0..100).' },
  EMPTY_VALUE: { severity: 'error', summary: 'A name or identifier is empty.' },
  VALUE_TOO_LONG: { severity: 'error', summary: 'A value is longer than allowed.' },
  DUPLICATE_ITEM: { severity: 'error', summary: 'A list that must not repeat an entry repeats one.' },
  REMOVED_FIELD: { severity: 'error', summary: 'A monitor field removed on 2025-08-27; names the ErrorConditions type that replaces it (run `monsync migrate`).' },
  LOAD_TIME_IN_SECONDS: { severity: 'warning', summary: 'A `LoadTimeLimit1`/`LoadTimeLimit2` condition whose Value is under 100: the service reads milliseconds, so it was likely written in seconds (`"3"` alerts at 3 ms).' },
  RENAMED_FIELD: { severity: 'warning', summary: 'A field spelled as the spec or the v3 API spells it, which the service drops (`CheckFrequency`, `OperatorResponseTimeThreshold`); names the published field (run `monsync migrate`).' },
  RENAMED_VALUE: { severity: 'warning', summary: 'A value spelled as the spec spells it (`PDFDownloadLink`, `Previous Week`), which the service refuses; names the published value (run `monsync migrate`).' },
  OBSOLETE_FIELD: { severity: 'error', summary: 'A field the API says is obsolete and must not be sent (`Sensitive` on a monitor variable).' },
  LITERAL_SECRET: { severity: 'error', summary: 'A secret written as a literal: where a `{ fromEnv }` / `{ fromFile }` reference is required, or a value that looks like one where none is expected (a variable or header whose name says credential, a `Bearer ...` or JWT-shaped string, a URL with `user:password@`). Never quotes the value; `{ literal, notSecret }` keeps a value that only looks secret.' },
  SECRET_ENV_RESERVED: { severity: 'error', summary: '`fromEnv` names one of monsync\'s own variables (`MONSYNC_*`: API credentials, fingerprint key, settings); only `MONSYNC_SECRET_*` (pull\'s placeholders) may be read into the account.' },
  // Guardrails
  POLICY_ERROR: { severity: 'error', summary: 'An object breaks a policy rule of severity error (`policy:` in monsync.yaml); names the rule and how to fix it, or to waive it with `policyWaivers`.' },
  POLICY_WARNING: { severity: 'warning', summary: 'An object breaks a policy rule of severity warning.' },
  INVALID_POLICY: { severity: 'error', summary: 'A policy rule\'s parameters cannot be used (e.g. a namePattern that is not a valid regular expression, or min above max).' },
  INVALID_WAIVER: { severity: 'error', summary: 'A policy waiver names no known rule, a rule about the whole account, or a rule that does not check its kind, or its reason is blank, or its date is not a real day.' },
  WAIVER_EXPIRED: { severity: 'error', summary: 'A policy waiver is past its `until` date: fix the object or renew the waiver in a reviewed change.' },
  UNUSED_WAIVER: { severity: 'warning', summary: 'A policy waiver silences nothing: its rule is not in `policy:`, or the object keeps the rule.' },
  // Tree
  MISSING_API_VERSION: { severity: 'error', summary: 'monsync.yaml has no `apiVersion: monsync/v1`.' },
  SETTINGS_OUTSIDE_ROOT: { severity: 'error', summary: '`apiVersion`, `manage`, `ignore`, `safety`, `protect` or `policy` outside the root monsync.yaml.' },
  DUPLICATE_KEY: { severity: 'error', summary: 'Two declarations (possibly in different files) have the same key; names both places.' },
  LOOKALIKE_KEY: { severity: 'error', summary: 'Two declarations have keys that read the same but differ in invisible characters (zero-width, U+2060, BOM), spaces other than U+0020 (no-break, narrow, figure), Unicode normalisation (NFC and NFD) or surrounding whitespace; names both places, the keys escaped.' },
  DUPLICATE_GUID: { severity: 'error', summary: 'Two declarations pin the same GUID.' },
  OPERATOR_FIELD_REFUSED: { severity: 'error', summary: 'An operator declares `IsAccountAdministrator` or `UserName` (read-only), `IsOnDuty` (operational state, never planned), or `PhoneProvider` or `OutgoingPhoneNumber` (the spec\'s, not fields of the service).' },
  CONFLICTING_FIELDS: { severity: 'error', summary: 'Two fields that set the same thing are both declared (an operator\'s `outgoingPhoneNumber` and `OutgoingPhoneNumberId`).' },
  AUTHORIZATION_NOT_ASSIGNABLE: { severity: 'error', summary: 'A group declares the authorization `Administrator` or `AccountAdministrator`, which the service never lets a client assign.' },
  EVERYONE_GROUP: { severity: 'error', summary: 'The system group Everyone is declared; every operator is in it and it cannot be changed.' },
  UNKNOWN_REFERENCE: { severity: 'error', summary: 'A group member or vault reference names nothing declared.' },
  UNCHECKED_REFERENCE: { severity: 'warning', summary: 'A reference names nothing declared in the files that parsed; another file failed to parse (its syntax error is reported) and may declare it.' },
  ALL_MONITORS_GROUP: { severity: 'error', summary: 'The All Monitors group is declared; its membership cannot be changed.' },
  DUTY_SCHEDULES_WITHOUT_MEMBERS: { severity: 'error', summary: 'An operator group declares `dutySchedules` but not `members`: its schedules are copies on its members, so monsync needs the member list.' },
  SCHEDULE_FIELD_MISSING: { severity: 'error', summary: 'A schedule lacks a field its ScheduleType / ScheduleMode needs.' },
  SCHEDULE_FIELD_UNEXPECTED: { severity: 'error', summary: 'A schedule has a field its ScheduleType / ScheduleMode does not use.' },
  SLA_THRESHOLD_ORDER: { severity: 'error', summary: 'UptimeWarningThreshold is below UptimeErrorThreshold.' },
  GENERATED_FIELD: { severity: 'error', summary: 'A field the service makes is declared (a RUM website\'s `RumScript`).' },
  RUM_FRAGMENT_WITHOUT_SPA: { severity: 'error', summary: 'A RUM website sets IncludeUrlFragment without IsSpa.' },
  EXCLUSION_PERIOD_ORDER: { severity: 'error', summary: 'An exclusion period does not end after it starts.' },
  VAULT_FILE_TOO_LARGE: { severity: 'error', summary: 'A `File` vault item is larger than 2 MB.' },
  VAULT_VALUE_MISSING: { severity: 'warning', summary: 'A vault item has no value for its type (nothing would be written).' },
  KIND_NOT_MANAGED: { severity: 'warning', summary: 'Resources of a kind are declared but the kind is not in `manage`: they will not be planned.' },
  ENV_VAR_UNSET: { severity: 'warning', summary: 'A `fromEnv` variable is unset (an error when values are needed).' },
  SECRET_FILE_MISSING: { severity: 'warning', summary: 'A `fromFile` file does not exist (an error when values are needed).' },
  SECRET_FILE_OUTSIDE_TREE: { severity: 'error', summary: 'A `fromFile` path is absolute or leads outside the config tree (by `..` or a symbolic link).' },
  SECRET_FILE_HIDDEN: { severity: 'error', summary: 'A `fromFile` path goes through a hidden folder or names a hidden file (`.git/config`, `.github/...`, `.env`): never read.' },
  SECRET_FILE_TOO_LARGE: { severity: 'error', summary: 'A `fromFile` file is larger than 1 MiB (a `File` vault item: 2 MB, `VAULT_FILE_TOO_LARGE`): not read.' },
  SECRET_FILE_NOT_REGULAR: { severity: 'error', summary: 'A `fromFile` path names a folder, a named pipe, a socket or a device, not a file.' },
  VAULT_PLACEHOLDER_WRITTEN: { severity: 'error', summary: 'A `{{vault:...}}` placeholder written by hand; reference a declared item with `{ vault: Section/Item }`.' },
  SECRET_UNAVAILABLE: { severity: 'error', summary: 'A secret file exists but cannot be read while values are needed (resolveSecrets). An unset variable or a missing file is not an error of the tree: the plan refuses (SECRET_UNAVAILABLE) only a step that sends the value.' },
} as const satisfies Record<string, { severity: Severity; summary: string }>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** A finding of a policy rule (not a fault of the tree's form): plan shows it with the plan instead of stopping. */
export function isPolicyFinding(d: Diagnostic): boolean {
  return d.code === 'POLICY_ERROR' || d.code === 'POLICY_WARNING';
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

const compare = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);

/** Sorted by file, line, column, then code (stable and independent of the order checks ran in). */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => compare(a.file, b.file) || a.line - b.line || a.column - b.column || compare(a.code, b.code) || compare(a.message, b.message),
  );
}

/** One line per diagnostic: `file:line:col severity CODE message` (the golden-file form). */
export function diagnosticLine(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`;
}

const MAX_SNIPPET = 100;

/** Findings about a path that was refused unread (tree-files.ts): no line of it exists to quote. */
const UNREAD_FILE_CODES = new Set<string>(['CONFIG_FILE_OUTSIDE_TREE', 'CONFIG_FILE_NOT_REGULAR', 'CONFIG_FILE_READ_TWICE', 'CONFIG_LINK_LOOP', 'CONFIG_LINK_DANGLING']);

/**
 * `file:line:col: severity CODE: message`, then (given the file's text) the line with carets under the range,
 * and the hint.
 */
export function formatDiagnostic(d: Diagnostic, options: { source?: string } = {}): string {
  const lines = [`${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code}: ${d.message}`];
  const text = d.redactSource === true || d.code === 'LITERAL_SECRET' ? undefined : options.source?.split(/\r\n?|\n/)[d.line - 1];
  if (UNREAD_FILE_CODES.has(d.code)) {
    // The file was not read: there is no line to show, and no secret to explain.
  } else if (text === undefined && options.source !== undefined) {
    lines.push(`${String(d.line)} | (line not shown: it holds a literal secret)`);
  } else if (text !== undefined) {
    let start = d.column - 1;
    let end = d.endLine === d.line && d.endColumn !== undefined && d.endColumn > d.column ? d.endColumn - 1 : start + 1;
    let shown = text;
    let prefix = '';
    if (shown.length > MAX_SNIPPET) {
      // Keep the column in view on long lines, as yaml's prettifyError does.
      const from = Math.max(0, Math.min(start - 20, shown.length - MAX_SNIPPET));
      shown = shown.slice(from, from + MAX_SNIPPET);
      prefix = from > 0 ? '…' : '';
      start = start - from + prefix.length;
      end = end - from + prefix.length;
      shown = prefix + shown;
    }
    end = Math.min(Math.max(end, start + 1), Math.max(shown.length, start + 1));
    const gutter = String(d.line);
    lines.push(`${gutter} | ${shown}`);
    // Tabs before the range stay tabs, so the carets line up wherever the terminal puts its tab stops.
    const padding = shown.slice(0, Math.max(0, start)).padEnd(Math.max(0, start)).replace(/[^\t]/g, ' ');
    lines.push(`${' '.repeat(gutter.length)} | ${padding}${'^'.repeat(Math.max(1, end - start))}`);
  }
  if (d.hint !== undefined) lines.push(`hint: ${d.hint}`);
  return lines.join('\n');
}
