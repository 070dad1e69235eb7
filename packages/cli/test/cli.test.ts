import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/index.js';
import { bufferedIo } from '../src/io.js';
import { run } from '../src/main.js';
import { EXIT_CODE_MEANINGS, ExitCode } from '../src/exit-codes.js';
import { cliVersion } from '../src/version.js';
import { monsync, tempTree } from './helpers.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\n  monitorGroups: { prune: false }\n';

describe('monsync command line', () => {
  it('prints the global help with every command on --help, exit 0', async () => {
    const { code, out } = await monsync(['--help']);
    expect(code).toBe(ExitCode.Ok);
    for (const command of COMMANDS) expect(out).toContain(`\n  ${command.name} `);
    expect(out).toContain(`\nExit codes:\n${Object.entries(EXIT_CODE_MEANINGS).map(([exit, meaning]) => `  ${exit}  ${meaning}\n`).join('')}`);
  });

  it('lists every command with the summary its own help shows', async () => {
    for (const entry of COMMANDS) {
      const spec = await entry.load();
      expect(spec.name).toBe(entry.name);
      expect(spec.summary, entry.name).toBe(entry.summary);
    }
  });

  it('has --help with usage and at least one example for every command', async () => {
    for (const command of COMMANDS) {
      const { code, out } = await monsync([command.name, '--help']);
      expect(code, command.name).toBe(ExitCode.Ok);
      expect(out, command.name).toContain(`Usage: monsync ${command.name}`);
      expect(out, command.name).toMatch(/\nExamples?:\n {2}monsync /);
    }
  });

  it('answers help before complaining about other flags on the line', async () => {
    const { code, out } = await monsync(['plan', '--bogus', '-h']);
    expect(code).toBe(ExitCode.Ok);
    expect(out).toContain('Usage: monsync plan');
  });

  it('prints the version with --version, before or after a command', async () => {
    expect((await monsync(['--version'])).out).toBe(`${cliVersion()}\n`);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect((await monsync(['validate', '--version'])).out).toBe(`${pkg.version}\n`);
  });

  it('exits 1 with the help on stderr when no command is given', async () => {
    const { code, out, err } = await monsync([]);
    expect(code).toBe(ExitCode.Error);
    expect(out).toBe('');
    expect(err).toContain('monsync: no command given.');
  });

  it('rejects an unknown command with a suggestion, exit 1', async () => {
    const { code, err } = await monsync(['valdate']);
    expect(code).toBe(ExitCode.Error);
    expect(err).toBe(`monsync: unknown command 'valdate' (did you mean 'validate'?). Commands: ${COMMANDS.map((c) => c.name).join(', ')}\nRun 'monsync --help' for usage.\n`);
  });

  it('rejects an unknown flag with a clear error and exit 1, before doing anything', async () => {
    const { code, out, err } = await monsync(['plan', '--formt', 'json']);
    expect(code).toBe(ExitCode.Error);
    expect(out).toBe('');
    expect(err).toBe("monsync: unknown option --formt for 'monsync plan' (did you mean --format?)\nRun 'monsync plan --help' for usage.\n");
  });

  it('points a Terraform-style single-dash flag at its two-dash form, not at another option', async () => {
    const { code, out, err } = await monsync(['plan', '-target=monitor:Blog']);
    expect(code).toBe(ExitCode.Error);
    expect(out).toBe('');
    expect(err).toBe("monsync: unknown option -target=monitor:Blog for 'monsync plan' (long options take two dashes: did you mean --target=monitor:Blog?)\nRun 'monsync plan --help' for usage.\n");
    expect((await monsync(['apply', '-auto-approve'])).err).toContain('did you mean --auto-approve?');
    expect((await monsync(['-verbose', 'validate'])).err).toContain('did you mean --verbose?');
  });

  it('takes --no-color on every command, and writes diagnostics without colour on a terminal with it', async () => {
    for (const command of COMMANDS) expect((await monsync([command.name, '--help'])).out, command.name).toContain('--no-color');
    const tree = tempTree({ 'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\nbogus: 1\n' });
    const coloured = await monsync(['validate', '--config', '.'], { cwd: tree, isTTY: true });
    expect(coloured.code).toBe(ExitCode.Error);
    expect(coloured.err).toContain('\u001b[31m');
    for (const argv of [['validate', '--no-color', '--config', '.'], ['--no-color', 'validate', '--config', '.']]) {
      const plain = await monsync(argv, { cwd: tree, isTTY: true });
      expect(plain.code).toBe(ExitCode.Error);
      expect(plain.err).not.toContain('\u001b[');
      expect(plain.err).toBe(coloured.err.split('\u001b[31m').join('').split('\u001b[39m').join(''));
    }
  });

  it('rejects a bad --format value and stray arguments', async () => {
    expect((await monsync(['plan', '--format', 'yaml'])).err).toContain("option --format: 'yaml' is not one of text, markdown, json");
    const stray = await monsync(['validate', 'configs']);
    expect(stray.code).toBe(ExitCode.Error);
    expect(stray.err).toContain("'monsync validate' takes no arguments, got 'configs'");
  });

  it('ignores a leading -- (pnpm passes it through) but nothing else', async () => {
    const tree = tempTree({ 'monsync.yaml': SETTINGS });
    const withSeparator = await monsync(['--', 'validate', '--config', '.'], { cwd: tree });
    expect(withSeparator.code).toBe(ExitCode.Ok);
    expect(withSeparator.out).toBe('.: valid (0 monitors, 0 monitor groups, 0 vault sections with 0 items, 0 SLAs with 0 exclusion periods, 0 scheduled reports, 0 alert definitions with 0 levels, 0 operators with 0 duty schedules, 0 operator groups, 0 RUM websites)\n');
    expect((await monsync(['--', '--help'])).code).toBe(ExitCode.Ok);
  });

  it('accepts global options before or after the command, but --config only once', async () => {
    const tree = tempTree({ 'cfg/monsync.yaml': SETTINGS });
    expect((await monsync(['--config', 'cfg', 'validate'], { cwd: tree })).code).toBe(ExitCode.Ok);
    expect((await monsync(['validate', '-c', 'cfg'], { cwd: tree })).code).toBe(ExitCode.Ok);
    const twice = await monsync(['--config', 'cfg', 'validate', '--config', 'cfg'], { cwd: tree });
    expect(twice.code).toBe(ExitCode.Error);
    expect(twice.err).toContain('option --config given twice');
  });

  it('finds the config folder upwards from the working directory', async () => {
    const tree = tempTree({ 'monsync.yaml': SETTINGS, 'monitors/shop.yaml': 'monitors:\n  - { Name: Shop, MonitorType: Https }\n' });
    const { code, out } = await monsync(['validate'], { cwd: join(tree, 'monitors') });
    expect(code).toBe(ExitCode.Ok);
    expect(out).toMatch(/: valid \(1 monitor, /);
  });

  it('explains a missing config tree, exit 1', async () => {
    const empty = tempTree({ 'README.md': 'no tree here\n' });
    const { code, err } = await monsync(['validate'], { cwd: empty });
    expect(code).toBe(ExitCode.Error);
    expect(err).toMatch(/^monsync validate: error CONFIG_ROOT_MISSING: no monsync\.yaml in .* or any folder above it\. Run monsync inside a config tree or pass --config DIR \(monsync init starts one\)\.\n$/);
  });
});

describe('monsync validate', () => {
  it('accepts the demo tree configs/ without credentials, reporting what it declares', async () => {
    const { code, out, err } = await monsync(['validate', '--config', 'configs'], { env: { DEMO_SHOP_PASSWORD: 'x', DEMO_SHOP_OTP_SECRET: 'x', DEMO_CLIENT_CERT_PFX_BASE64: 'eA==', DEMO_CLIENT_CERT_PASSWORD: 'x' } });
    // The demo tree's policy warns about one monitor on purpose (configs/monsync.yaml, policy:); nothing else is said.
    expect(err.split('\n').filter((line) => /^configs\//.test(line))).toEqual([expect.stringMatching(/^configs\/monitors\/marketing\.yaml:\d+:\d+: warning POLICY_WARNING: checkInterval: monitor `Blog`/)]);
    expect(code).toBe(ExitCode.Ok);
    expect(out).toMatch(/^configs: valid \(\d+ monitors, 3 monitor groups, 1 vault section with 3 items, 2 SLAs with 3 exclusion periods, 1 scheduled report, 3 alert definitions with 4 levels, \d+ operators with \d+ duty schedules?, \d+ operator groups, 1 RUM website\), 1 warning\n$/);
  });

  it('warns, but passes, when a secret variable is unset (plan will need it)', async () => {
    const { code, out, err } = await monsync(['validate', '--config', 'configs']);
    expect(code).toBe(ExitCode.Ok);
    expect(err).toContain('configs/vault.yaml:');
    expect(err).toMatch(/warning ENV_VAR_UNSET: environment variable DEMO_SHOP_PASSWORD is not set/);
    expect(out).toMatch(/, 5 warnings\n$/); // 4 unset variables and the demo policy's warning
  });

  it('reports every error of a broken tree as file:line:col with a caret snippet, exit 1', async () => {
    const tree = tempTree({
      'tree/monsync.yaml': SETTINGS,
      'tree/monitors.yaml': 'monitors:\n  - Name: Shop\n    UserAgent: Netscape\nmonitorGroups:\n  - Description: G\n    members: [Shop, Nope]\n',
    });
    const { code, out, err } = await monsync(['validate', '--config', 'tree'], { cwd: tree });
    expect(code).toBe(ExitCode.Error);
    expect(out).toBe('');
    expect(err).toContain('tree/monitors.yaml:3:16: error INVALID_ENUM: `UserAgent` must be one of ChromeLatest, EdgeLatest (got `Netscape`)\n3 |     UserAgent: Netscape\n  |                ^^^^^^^^\n');
    expect(err).toContain('tree/monitors.yaml:6:21: error UNKNOWN_REFERENCE: member `Nope` of group `G` names no declared monitor\n6 |     members: [Shop, Nope]\n  |                     ^^^^\n');
    expect(err).toContain('tree: 2 errors; nothing was sent to the API.\n');
  });

  it('never quotes a literal secret back, not even in the snippet', async () => {
    const canary = 'CANARY-7f3a9c-literal';
    const tree = tempTree({ 'monsync.yaml': SETTINGS, 'monitors.yaml': `monitors:\n  - Name: Shop\n    Password: ${canary}\n` });
    const { code, out, err } = await monsync(['validate'], { cwd: tree });
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain('monitors.yaml:3:15: error LITERAL_SECRET:');
    expect(out + err).not.toContain(canary);
  });
});

describe('monsync migrate', () => {
  const legacy = 'monitors:\n  # keep this comment\n  - Name: Shop\n    AlertOnLoadTimeLimit1: true\n    LoadTimeLimit1: 4000\n';

  it('--check exits 1 and writes nothing when a monitor uses removed fields; 0 after migrating', async () => {
    const tree = tempTree({ 'monsync.yaml': SETTINGS, 'monitors.yaml': legacy });
    const check = await monsync(['migrate', '--check'], { cwd: tree });
    expect(check.code).toBe(ExitCode.Error);
    expect(check.out).toContain('monitors.yaml:4:5: monitor "Shop": would move AlertOnLoadTimeLimit1, LoadTimeLimit1 -> ErrorConditions: LoadTimeLimit1 Value "4000" (milliseconds, as before) Effect Error');
    expect(readFileSync(join(tree, 'monitors.yaml'), 'utf8')).toBe(legacy);

    const migrate = await monsync(['migrate'], { cwd: tree });
    expect(migrate.code).toBe(ExitCode.Ok);
    const rewritten = readFileSync(join(tree, 'monitors.yaml'), 'utf8');
    expect(rewritten).toContain('# keep this comment');
    expect(rewritten).not.toContain('LoadTimeLimit1: 4000');

    const again = await monsync(['migrate', '--check'], { cwd: tree });
    expect(again.code).toBe(ExitCode.Ok);
    expect(again.out).toBe('No monitor uses the removed fields, and no field or value the spec spells differently from the service.\n');
    expect((await monsync(['validate'], { cwd: tree })).code).toBe(ExitCode.Ok);
  });

  it('converts a JSON export into a new YAML file that validates', async () => {
    const exported = JSON.stringify([{ MonitorGuid: '3f2a7c1e-5b9d-4e8a-a1c2-0d9e8f7a6b5c', Name: 'Exported', MonitorType: 'Https', ExpectedHttpStatusCode: 200, ExpectedHttpStatusCodeSpecified: true, CreatedDate: '2024-01-01T00:00:00' }]);
    const tree = tempTree({ 'monsync.yaml': SETTINGS, 'export/monitors.json': exported });
    const result = await monsync(['migrate', '--from-json', 'export', '--out', 'monitors/imported.yaml'], { cwd: tree });
    expect(result.err).toBe('');
    expect(result.code).toBe(ExitCode.Ok);
    expect(result.out).toBe('Wrote 1 monitor to monitors/imported.yaml (1 migrated off removed fields).\n');
    const text = readFileSync(join(tree, 'monitors/imported.yaml'), 'utf8');
    expect(text).toContain('ErrorConditionType: HttpStatus');
    expect(text).not.toContain('CreatedDate');
    expect((await monsync(['validate'], { cwd: tree })).code).toBe(ExitCode.Ok);
  });

  it('lists the placeholders a JSON export\'s secrets became, never their values', async () => {
    const exported = JSON.stringify([{ Name: 'Exported', MonitorType: 'Https', Password: 'CANARY-7f3a9c' }]);
    const tree = tempTree({ 'monsync.yaml': SETTINGS, 'export/monitors.json': exported });
    const result = await monsync(['migrate', '--from-json', 'export', '--out', 'monitors/imported.yaml'], { cwd: tree });
    expect(result.code).toBe(ExitCode.Ok);
    expect(result.out).toContain('MONSYNC_SECRET_EXPORTED_PASSWORD');
    expect(result.out + result.err + readFileSync(join(tree, 'monitors/imported.yaml'), 'utf8')).not.toContain('CANARY-7f3a9c');
  });

  it('exits 1 and writes no --out file (nor its folder) when the JSON import has an error', async () => {
    const exported = JSON.stringify([
      { Name: 'Conflicting', MonitorType: 'Https', ExpectedHttpStatusCode: 200, ExpectedHttpStatusCodeSpecified: true, ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '404' }] },
    ]);
    const tree = tempTree({ 'monsync.yaml': SETTINGS, 'export/monitors.json': exported });
    const result = await monsync(['migrate', '--from-json', 'export', '--out', 'imported/monitors.yaml'], { cwd: tree });
    expect(result.err).toContain('error MIGRATE_CONFLICT');
    expect(result.code).toBe(ExitCode.Error);
    expect(existsSync(join(tree, 'imported'))).toBe(false);
  });

  it('needs --out with --from-json', async () => {
    const { code, err } = await monsync(['migrate', '--from-json', 'x.json']);
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain('--from-json needs --out FILE');
  });
});

describe('MONSYNC_API_URL in errors', () => {
  const TOKEN = 'CANARY-7f3a9c-url-token';
  const USERINFO = 'CANARY-7f3a9c-url-password';
  const credentials = { MONSYNC_API_USERNAME: 'demo', MONSYNC_API_PASSWORD: 'demo-password' };
  const commands = (tree: string): string[][] => [
    ['plan', '--config', tree],
    ['apply', '--config', tree, '--auto-approve'],
    ['pull', '--out', join(tree, 'pulled')],
  ];

  it('shows the URL without its query or fragment when it has one, exit 1', async () => {
    const tree = tempTree({ 'monsync.yaml': SETTINGS });
    for (const url of [`http://127.0.0.1:9/v4?token=${TOKEN}`, `http://127.0.0.1:9/v4#${TOKEN}`, `https://127.0.0.1:9/v4?a=1&api_key=${TOKEN}#x`]) {
      for (const argv of commands(tree)) {
        const { code, err } = await monsync(argv, { env: { ...credentials, MONSYNC_API_URL: url } });
        expect(code, `${argv[0] ?? ''} ${url}`).toBe(ExitCode.Error);
        expect(err).toContain('CLIENT_CONFIG');
        expect(err).toMatch(/MONSYNC_API_URL must not have a query or fragment: https?:\/\/127\.0\.0\.1:9\/v4 \(/);
        expect(err).not.toContain(TOKEN);
      }
    }
  });

  it('never echoes a user name, password or query of a URL it cannot parse', async () => {
    const tree = tempTree({ 'monsync.yaml': SETTINGS });
    for (const url of [`not a url?token=${TOKEN}`, `http//apiuser:${USERINFO}@127.0.0.1:9/v4`, `127.0.0.1:9/v4?token=${TOKEN}`, `http://apiuser:${USERINFO}@127.0.0.1:9/v4?token=${TOKEN}`]) {
      for (const argv of commands(tree)) {
        const { code, err } = await monsync(argv, { env: { ...credentials, MONSYNC_API_URL: url } });
        expect(code, `${argv[0] ?? ''} ${url}`).toBe(ExitCode.Error);
        expect(err).toContain('CLIENT_CONFIG');
        expect(err).toContain('MONSYNC_API_URL');
        expect(err).not.toContain(TOKEN);
        expect(err).not.toContain(USERINFO);
      }
    }
  });
});

describe('--verbose and errors', () => {
  const STACK_LINE = /^ {4}at /m;

  it('prints no stack trace for ordinary errors: configuration, a missing variable, usage', async () => {
    const empty = tempTree({ 'README.md': 'no tree here\n' });
    const missingTree = await monsync(['validate', '--verbose'], { cwd: empty });
    expect(missingTree.err).toContain('CONFIG_ROOT_MISSING');
    const tree = tempTree({ 'monsync.yaml': SETTINGS });
    const missingVariable = await monsync(['plan', '--verbose'], { cwd: tree });
    expect(missingVariable.err).toContain('CLIENT_CONFIG');
    const usage = await monsync(['plan', '--verbose', '--formt', 'json'], { cwd: tree });
    expect(usage.err).toContain('unknown option --formt');
    for (const outcome of [missingTree, missingVariable, usage]) {
      expect(outcome.code).toBe(ExitCode.Error);
      expect(outcome.err).not.toMatch(STACK_LINE);
    }
  });

  it('prints the stack of an unexpected internal error with --verbose only', async () => {
    const tree = tempTree({ 'monsync.yaml': SETTINGS });
    const broken = (verbose: boolean) => {
      const io = bufferedIo({ cwd: tree });
      // An internal fault: writing the result fails with a plain TypeError, which no command expects.
      io.stdout = { write: () => { throw new TypeError('stdout went away'); } };
      return run(['validate', ...(verbose ? ['--verbose'] : [])], io).then((code) => ({ code, err: io.err() }));
    };
    const quiet = await broken(false);
    expect(quiet.code).toBe(ExitCode.Error);
    expect(quiet.err).toBe('monsync validate: error: stdout went away\n');
    const verbose = await broken(true);
    expect(verbose.err).toContain('monsync validate: error: stdout went away\nTypeError: stdout went away\n');
    expect(verbose.err).toMatch(STACK_LINE);
  });
});

describe('a service that cannot be reached', () => {
  it('fails the plan naming what to check: MONSYNC_API_URL and the way to the service', async () => {
    const tree = tempTree({ 'monsync.yaml': SETTINGS });
    // Port 9 (discard) refuses connections on a machine that runs no such service: every attempt fails at once.
    const { code, err } = await monsync(['plan', '--config', tree], { env: { MONSYNC_API_URL: 'http://127.0.0.1:9/v4', MONSYNC_API_USERNAME: 'demo', MONSYNC_API_PASSWORD: 'CANARY-unreached-password' } });
    expect(code).toBe(ExitCode.Error);
    expect(err).toMatch(/error LIVE_READ_FAILED: .*network error/);
    expect(err).toMatch(/\nhint: check MONSYNC_API_URL \(the API root, e\.g\. https:\/\/api\.example\.com\/v4\) and that the service is reachable from this machine\n$/);
    expect(err).not.toContain('CANARY-unreached-password');
  });
});

describe('credentials and secrets are checked before the live account is read', () => {
  const credentials = { MONSYNC_API_URL: 'http://127.0.0.1:9/v4', MONSYNC_API_USERNAME: 'demo', MONSYNC_API_PASSWORD: 'demo-password' };

  it('reports a missing or bad API variable without first announcing the read, in plan, apply and pull', async () => {
    const tree = tempTree({ 'monsync.yaml': SETTINGS });
    const { MONSYNC_API_PASSWORD: _password, ...noPassword } = credentials;
    for (const env of [noPassword, { ...credentials, MONSYNC_API_URL: 'ftp://127.0.0.1:9/v4' }]) {
      for (const argv of [['plan', '--config', tree], ['apply', '--config', tree, '--auto-approve'], ['pull', '--out', join(tree, 'pulled')]]) {
        const { code, err } = await monsync(argv, { env });
        expect(code, argv[0]).toBe(ExitCode.Error);
        expect(err, argv[0]).toMatch(/^monsync \w+: error CLIENT_CONFIG: /);
        expect(err, argv[0]).not.toContain('reading live account');
      }
    }
  });

  it('does not refuse a tree for an unset secret variable before the read: the plan decides whether it sends the value', async () => {
    for (const argv of [['plan', '--config', 'configs'], ['apply', '--config', 'configs', '--auto-approve']]) {
      const { code, err } = await monsync(argv, { env: credentials });
      expect(code, argv[0]).toBe(ExitCode.Error);
      expect(err, argv[0]).toContain('reading live account');
      expect(err, argv[0]).toMatch(/error LIVE_READ_FAILED: /);
      expect(err, argv[0]).not.toContain('SECRET_UNAVAILABLE');
    }
  });
});
