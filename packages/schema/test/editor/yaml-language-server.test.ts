import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient } from './lsp-client.js';

/**
 * Editor support: the real yaml-language-server (the engine of the VS Code YAML extension and of most editors'
 * YAML support), started over stdio and given our committed schema, must flag a wrong enum value and complete
 * monitor fields. This is what a user gets from the modeline the README shows.
 */

const PACKAGE = join(import.meta.dirname, '..', '..');
const REPO = join(PACKAGE, '..', '..');
const SERVER = join(PACKAGE, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
const SCHEMA = join(REPO, 'schemas', 'config.schema.json');
// Documents are sent by didOpen and never written: their URIs only place them (for the modeline's relative path).
const DOCS = join(REPO, 'examples', 'editor');

/** Generous: the server loads and compiles the schema on first use, and CI machines can be slow. */
const PROTOCOL_TIMEOUT_MS = 30_000;

interface Position {
  line: number;
  character: number;
}
interface Diagnostic {
  range: { start: Position; end: Position };
  message: string;
  severity?: number;
  data?: unknown;
}
interface PublishDiagnostics {
  uri: string;
  diagnostics: Diagnostic[];
}
interface CompletionItem {
  label: string;
  documentation?: unknown;
}

const yamlSettings = {
  validate: true,
  completion: true,
  hover: true,
  format: { enable: false },
  schemaStore: { enable: false },
  // Documents without a modeline are associated through the settings, as an editor's workspace config would.
  schemas: { [pathToFileURL(SCHEMA).href]: ['**/settings-mapped/*.yaml'] },
};

let client: LspClient | undefined;
let version = 0;

function uriOf(relative: string): string {
  return pathToFileURL(join(DOCS, relative)).href;
}

function open(relative: string, text: string): string {
  const uri = uriOf(relative);
  version += 1;
  client?.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version, text } });
  return uri;
}

async function diagnosticsFor(uri: string): Promise<Diagnostic[]> {
  const published = await (client as LspClient).waitForNotification<PublishDiagnostics>(
    'textDocument/publishDiagnostics',
    (params) => params.uri === uri,
    PROTOCOL_TIMEOUT_MS,
  );
  return published.diagnostics;
}

async function completionAt(uri: string, position: Position): Promise<CompletionItem[]> {
  const result = await (client as LspClient).request<CompletionItem[] | { items: CompletionItem[] } | null>(
    'textDocument/completion',
    { textDocument: { uri }, position },
    PROTOCOL_TIMEOUT_MS,
  );
  if (result === null) return [];
  return Array.isArray(result) ? result : result.items;
}

const modeline = '# yaml-language-server: $schema=../../schemas/config.schema.json';

describe('yaml-language-server with schemas/config.schema.json', () => {
  beforeAll(async () => {
    expect(existsSync(SERVER), `yaml-language-server is not installed at ${SERVER}`).toBe(true);
    expect(existsSync(SCHEMA), `the committed schema is missing at ${SCHEMA}`).toBe(true);
    client = new LspClient(process.execPath, [SERVER, '--stdio'], PACKAGE);
    client.onServerRequest = (method, params) => {
      if (method === 'workspace/configuration') {
        const items = (params as { items?: Array<{ section?: string }> }).items ?? [];
        return items.map((item) => (item.section === 'yaml' ? yamlSettings : item.section?.startsWith('yaml.') ? null : {}));
      }
      return null;
    };
    await client.request(
      'initialize',
      {
        processId: process.pid,
        rootUri: pathToFileURL(REPO).href,
        workspaceFolders: [{ uri: pathToFileURL(REPO).href, name: 'monsync' }],
        capabilities: {
          workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false } },
          textDocument: {
            publishDiagnostics: { relatedInformation: false },
            completion: { completionItem: { snippetSupport: false, documentationFormat: ['plaintext', 'markdown'] } },
          },
        },
      },
      PROTOCOL_TIMEOUT_MS,
    );
    client.notify('initialized', {});
    client.notify('workspace/didChangeConfiguration', { settings: { yaml: yamlSettings } });
  }, PROTOCOL_TIMEOUT_MS * 2);

  afterAll(async () => {
    await client?.close(5_000);
    expect(client?.hasExited ?? true).toBe(true);
  }, 20_000);

  it(
    'reports a UserAgent outside the enumeration, on that value, naming the allowed ones',
    async () => {
      const text = [modeline, 'monitors:', '  - Name: Shop homepage', '    MonitorType: Https', '    UserAgent: Netscape', ''].join('\n');
      const diagnostics = await diagnosticsFor(open('wrong-enum.yaml', text));
      const onValue = diagnostics.filter((diagnostic) => diagnostic.range.start.line === 4);
      expect(onValue).toHaveLength(1);
      expect(onValue[0]?.range.start.character).toBe('    UserAgent: '.length);
      expect(onValue[0]?.message).toContain('ChromeLatest');
      expect(onValue[0]?.message).toContain('EdgeLatest');
    },
    PROTOCOL_TIMEOUT_MS * 2,
  );

  it(
    'reports nothing for the same monitor with an allowed UserAgent (the schema loaded, the check is specific)',
    async () => {
      const text = [modeline, 'monitors:', '  - Name: Shop homepage', '    MonitorType: Https', '    UserAgent: ChromeLatest', ''].join('\n');
      expect(await diagnosticsFor(open('right-enum.yaml', text))).toEqual([]);
    },
    PROTOCOL_TIMEOUT_MS * 2,
  );

  it(
    'reports a removed monitor field, through the schema associated in the settings (no modeline)',
    async () => {
      const text = ['monitors:', '  - Name: Shop homepage', '    LoadTimeLimit1: 4000', ''].join('\n');
      const diagnostics = await diagnosticsFor(open('settings-mapped/removed-field.yaml', text));
      const onField = diagnostics.filter((diagnostic) => diagnostic.range.start.line === 2);
      expect(onField).toHaveLength(1);
      // The server says which schema judged the document: ours, found through the settings.
      expect(onField[0]?.data).toEqual({ schemaUri: [pathToFileURL(SCHEMA).href] });
    },
    PROTOCOL_TIMEOUT_MS * 2,
  );

  it(
    'offers MonitorType when completing a key inside a monitor, and not the top-level keys',
    async () => {
      const text = [modeline, 'monitors:', '  - Name: Shop homepage', '    ', ''].join('\n');
      const uri = open('completion.yaml', text);
      await diagnosticsFor(uri);
      const labels = (await completionAt(uri, { line: 3, character: 4 })).map((item) => item.label);
      expect(labels).toContain('MonitorType');
      expect(labels).toContain('ErrorConditions');
      expect(labels).not.toContain('apiVersion');
    },
    PROTOCOL_TIMEOUT_MS * 2,
  );

  it(
    'offers the enumeration when completing a UserAgent value',
    async () => {
      const text = [modeline, 'monitors:', '  - Name: Shop homepage', '    UserAgent: ', ''].join('\n');
      const uri = open('enum-completion.yaml', text);
      await diagnosticsFor(uri);
      const labels = (await completionAt(uri, { line: 3, character: '    UserAgent: '.length })).map((item) => item.label);
      expect(labels).toEqual(expect.arrayContaining(['ChromeLatest', 'EdgeLatest']));
    },
    PROTOCOL_TIMEOUT_MS * 2,
  );
});
