/**
 * The lock-out guard through `monsync apply`: each plan that would lock the account (or monsync) out exits 1 with
 * the LOCK_OUT problem naming the step and the way to do it by hand, with and without --allow-unsafe, and the
 * emulator's request log shows not one write. The reconciler's tests cover the guard's rules; these cover what a
 * user sees and that the command stops before writing.
 */
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

const suite = useEmulator({ start: { retryAfterSeconds: 0 }, eachTest: { reset: true, clearLog: true } });

// Every safety share lifted, so the only thing that can stop these plans is the guard.
const SETTINGS = [
  'apiVersion: monsync/v1',
  'apiOperator: admin@example.com',
  'manage:',
  '  operators: { prune: true }',
  '  operatorGroups: { prune: false }',
  '  vault: { prune: false }',
  'safety: { maxDeletePercent: 100, maxUpdatePercent: 100 }',
  '',
].join('\n');

const CASES: { name: string; people: string; message: string; settings?: string }[] = [
  {
    name: "deletes the API account's own operator",
    people: 'operators:\n  - Email: viewer@example.com\n',
    message:
      "delete operator:admin@example.com would delete the operator of the API account in use (the service refuses it with 403); monsync never does that, with or without --allow-unsafe. If it is really meant, delete it in the web application signed in as another administrator, or run monsync with an API account of another administrator",
  },
  {
    name: "takes the API account's operator out of Administrators",
    people: 'operators:\n  - Email: admin@example.com\n  - Email: viewer@example.com\noperatorGroups:\n  - Description: Administrators\n    members: [viewer@example.com]\n',
    message:
      "delete operatorGroupMember:Administrators/admin@example.com would remove the API account's own operator from the Administrators group, after which monsync could manage nothing; monsync never does that, with or without --allow-unsafe. If it is really meant, remove it in the web application signed in as another administrator",
  },
  {
    name: 'leaves Administrators with no member',
    people: 'operators:\n  - Email: admin@example.com\n  - Email: viewer@example.com\noperatorGroups:\n  - Description: Administrators\n    members: []\n',
    message:
      'delete operatorGroupMember:Administrators/admin@example.com would leave the Administrators group with no member, so that nobody could administer the account; monsync never does that, with or without --allow-unsafe. If it is really meant, add another administrator first, in a plan of its own',
  },
  {
    // Named as the API account's operator, the viewer is in no group with access to Default: were it the admin, the
    // plan would keep Administrators' `change` as its way in (the next test).
    name: 'removes the last change access to a managed vault section',
    settings: SETTINGS.replace('apiOperator: admin@example.com', 'apiOperator: viewer@example.com'),
    people:
      'operators:\n  - Email: admin@example.com\n  - Email: viewer@example.com\noperatorGroups:\n  - Description: Administrators\nvault:\n  sections:\n    - Name: Default\n      access:\n        - { group: Administrators, level: view }\n',
    message:
      'update vaultAccess:Default/group:Administrators would remove the last `change` access to the vault section, after which nobody could change or delete it; monsync never does that, with or without --allow-unsafe. If it is really meant, give another operator or group `change` first, in a plan of its own',
  },
];

describe('monsync apply refuses a plan that would lock the account out', () => {
  it('treats an API operator that names no operator (a typo) as unknown: every operator delete is refused', async () => {
    const settings = SETTINGS.replace('apiOperator: admin@example.com', 'apiOperator: admin@exmaple.com');
    const root = tempTree({ 'monsync.yaml': settings, 'people.yaml': 'operators:\n  - Email: viewer@example.com\n' });
    const { code, err } = await monsync(['apply', '--auto-approve', '--allow-unsafe'], { env: suite.env, cwd: root });
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain('warning: monsync.yaml apiOperator: "admin@exmaple.com" matches no operator of the account');
    expect(err).toContain("delete operator:admin@example.com would delete an operator that may be the API account's own");
    expect(suite.emulator.control.requestLog().entries.filter((e) => e.method !== 'GET')).toEqual([]);
  });

  describe.each(CASES)('a plan that $name', ({ people, message, settings }) => {
    it.each([[['--auto-approve']], [['--auto-approve', '--allow-unsafe']]])('exits 1 with LOCK_OUT, the step and the manual way (%j), and writes nothing', async (flags) => {
      const root = tempTree({ 'monsync.yaml': settings ?? SETTINGS, 'people.yaml': people });
      const { code, out, err } = await monsync(['apply', ...flags], { env: suite.env, cwd: root });
      expect(code).toBe(ExitCode.Error);
      expect(err).toContain('LOCK_OUT');
      expect(err).toContain(message);
      expect(out).not.toContain('Apply complete');
      const log = suite.emulator.control.requestLog().entries;
      expect(log.length).toBeGreaterThan(0);
      expect(log.filter((e) => e.method !== 'GET')).toEqual([]);
    });
  });

  it("keeps the group access that is the API account's only way into a section it manages, says why, and writes nothing", async () => {
    const people = 'operators:\n  - Email: admin@example.com\n  - Email: viewer@example.com\noperatorGroups:\n  - Description: Administrators\nvault:\n  sections:\n    - Name: Default\n      access:\n        - { group: Administrators, level: view }\n';
    const root = tempTree({ 'monsync.yaml': SETTINGS, 'people.yaml': people });
    const { code, out, err } = await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: root });
    expect(code).toBe(ExitCode.Ok);
    expect(`${out}${err}`).toContain(
      'ACCESS_KEPT: vault access "Default/group:Administrators" is left as it is although the config changes it (level change -> view): the API account\'s operator holds `change` on vault section "Default" only through this group, and monsync needs that to change the section and its items; give it `change` access of its own in the section\'s `access:` first, in a plan of its own',
    );
    expect(suite.emulator.control.requestLog().entries.filter((e) => e.method !== 'GET')).toEqual([]);
  });
});
