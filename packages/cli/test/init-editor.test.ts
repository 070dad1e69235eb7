import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient } from '../../schema/test/editor/lsp-client.js';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, REPO_ROOT, tempTree } from './helpers.js';

/**
 * What an editor makes of the tree `monsync init` writes in a user's repository (outside this one, with
 * the schema where `npm i -D @monsync/cli` installs it, inside the CLI package): the real yaml-language-server, given only the
 * files' own `yaml-language-server` line, flags a misspelt field and completes monitor fields.
 */

const SERVER = join(REPO_ROOT, 'packages', 'schema', 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
const TIMEOUT_MS = 30_000;

interface Position {
  line: number;
  character: number;
}
interface Diagnostic {
  range: { start: Position };
  message: string;
}

let client: LspClient | undefined;
let repository = '';
let modeline = '';

function openDocument(path: string, text: string): string {
  const uri = pathToFileURL(path).href;
  client?.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  return uri;
}

async function diagnosticsFor(uri: string): Promise<Diagnostic[]> {
  const published = await (client as LspClient).waitForNotification<{ uri: string; diagnostics: Diagnostic[] }>('textDocument/publishDiagnostics', (params) => params.uri === uri, TIMEOUT_MS);
  return published.diagnostics;
}

describe('the tree monsync init writes, in an editor', () => {
  beforeAll(async () => {
    repository = tempTree({});
    mkdirSync(join(repository, '.git'));
    const installed = join(repository, 'node_modules', '@monsync', 'cli', 'dist', 'schemas');
    mkdirSync(installed, { recursive: true });
    cpSync(join(REPO_ROOT, 'schemas', 'config.schema.json'), join(installed, 'config.schema.json'));
    expect((await monsync(['init', '--kinds', 'monitors', '--no-workflows'], { cwd: repository })).code).toBe(ExitCode.Ok);
    modeline = readFileSync(join(repository, 'configs', 'monsync.yaml'), 'utf8').split('\n')[0] ?? '';
    const settings = { validate: true, completion: true, hover: false, format: { enable: false }, schemaStore: { enable: false } };
    client = new LspClient(process.execPath, [SERVER, '--stdio'], repository);
    client.onServerRequest = (method, params) => {
      if (method !== 'workspace/configuration') return null;
      return ((params as { items?: Array<{ section?: string }> }).items ?? []).map((item) => (item.section === 'yaml' ? settings : null));
    };
    const rootUri = pathToFileURL(repository).href;
    await client.request('initialize', { processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: 'user' }], capabilities: { workspace: { configuration: true }, textDocument: { completion: { completionItem: { snippetSupport: false } } } } }, TIMEOUT_MS);
    client.notify('initialized', {});
    client.notify('workspace/didChangeConfiguration', { settings: { yaml: settings } });
  }, TIMEOUT_MS * 2);

  afterAll(async () => {
    await client?.close(5_000);
  }, 20_000);

  it('accepts monsync.yaml as written, and flags a misspelt field on its line', async () => {
    const root = join(repository, 'configs', 'monsync.yaml');
    const written = readFileSync(root, 'utf8');
    expect(await diagnosticsFor(openDocument(root, written))).toEqual([]);
    // monsync's own keys are closed (PascalCase API fields pass through, as the service may add some).
    const typo = written.replace('maxDeletePercent:', 'maxDeletePercnt:');
    const line = typo.split('\n').findIndex((text) => text.includes('maxDeletePercnt'));
    const diagnostics = await diagnosticsFor(openDocument(join(repository, 'configs', 'typo.yaml'), typo));
    expect(diagnostics.map((diagnostic) => diagnostic.range.start.line)).toContain(line);
  }, TIMEOUT_MS * 2);

  it('completes the fields of a monitor', async () => {
    const text = [modeline, 'monitors:', '  - Name: Shop homepage', '    ', ''].join('\n');
    const uri = openDocument(join(repository, 'configs', 'complete.yaml'), text);
    await diagnosticsFor(uri);
    const result = await (client as LspClient).request<Array<{ label: string }> | { items: Array<{ label: string }> } | null>('textDocument/completion', { textDocument: { uri }, position: { line: 3, character: 4 } }, TIMEOUT_MS);
    const labels = (result === null ? [] : Array.isArray(result) ? result : result.items).map((item) => item.label);
    expect(labels).toContain('MonitorType');
  }, TIMEOUT_MS * 2);
});
