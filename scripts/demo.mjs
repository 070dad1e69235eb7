#!/usr/bin/env node
// `pnpm demo`: the five-minute tour. Starts the emulator with the demo account on a free port, then runs
// `monsync validate` and `monsync plan` on configs/ in-process (the built CLI's `run()`), writes the markdown
// rendering a pull request would get, explains what the plan shows, applies the saved plan and plans again
// (no changes). Needs only `pnpm install`: the root script builds the packages first.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const load = async (pkg) => {
  try {
    return await import(pathToFileURL(join(root, 'packages', pkg, 'dist', 'index.js')).href);
  } catch (error) {
    console.error(`demo: cannot load packages/${pkg}/dist (${error.message}). Run it as \`npx pnpm@10 demo\`, which builds first.`);
    process.exit(1);
  }
};
const { startEmulator, SEEDED } = await load('emulator');
const { run } = await load('cli');

// Canary-like demo values for the vault secrets configs/ reads from the environment. The demo checks at the
// end that none of them appears in any output or file, which is the promise monsync makes for real secrets.
const secrets = {
  DEMO_SHOP_PASSWORD: 'CANARY-demo-shop-password-7f3a9c',
  // A one-time-password secret must be Base32 (A-Z, 2-7), or the service refuses it when apply creates the item.
  DEMO_SHOP_OTP_SECRET: 'CANARYDEMOOTPSECRETSEVENFAC',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-demo-pfx-bytes-7f3a9c').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-demo-pfx-password-7f3a9c',
};
// The shop password before it was rotated: the value the account's fingerprint marker was made from.
const OLD_SHOP_PASSWORD = 'CANARY-demo-old-shop-password-0b41';
const outDir = join(root, '.monsync-demo');
const markdownFile = join(outDir, 'plan.md');
const jsonFile = join(outDir, 'plan.json');
const show = (path) => relative(process.cwd(), path) || '.';

const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const bold = (text) => (color ? `\u001b[1m${text}\u001b[22m` : text);
const heading = (text) => console.log(`\n${bold(`== ${text}`)}\n`);

/** Runs one monsync command in-process, echoing its output and keeping a copy for the canary check. */
const captured = [];
async function monsync(args, { echo = true, extraEnv = {} } = {}) {
  let out = '';
  let err = '';
  const io = {
    stdout: { write: (chunk) => { out += chunk; if (echo) process.stdout.write(chunk); return true; } },
    stderr: { write: (chunk) => { err += chunk; if (echo) process.stderr.write(chunk); return true; } },
    env: { ...env, ...extraEnv },
    cwd: root,
    isTTY: Boolean(process.stdout.isTTY),
  };
  if (echo) console.log(bold(`$ monsync ${args.map((arg) => (/\s/.test(arg) ? JSON.stringify(arg) : arg)).join(' ')}`));
  const code = await run(args, io);
  captured.push(out, err);
  return { code, out, err };
}

const emulator = await startEmulator({ port: 0, seed: 'demo' });
const env = {
  ...process.env,
  MONSYNC_API_URL: emulator.url,
  MONSYNC_API_USERNAME: 'demo',
  MONSYNC_API_PASSWORD: 'demo-password',
  // The API account's own operator: what it changed last is not drift.
  MONSYNC_OPERATOR: 'admin@example.com',
  ...secrets,
};

/**
 * Setup, before the tour: make the emulator's demo account look as if monsync had applied configs/ once, before
 * the shop password was rotated. Vault items then carry fingerprint markers (as after any apply): the client
 * certificate's matches the current secrets, the shop login's matches the old password. The markers come from
 * a plan made with the old password, written as the administrator through the emulator's control API.
 */
async function stageEarlierApply() {
  const staged = await monsync(['plan', '--config', 'configs', '--format', 'json'], { echo: false, extraEnv: { DEMO_SHOP_PASSWORD: OLD_SHOP_PASSWORD } });
  if (staged.code !== 0 && staged.code !== 3) throw new Error(`setup plan exited ${staged.code}: ${staged.err}`);
  const steps = JSON.parse(staged.out).steps.filter((step) => step.kind === 'vaultItem' && step.action === 'update' && typeof step.desired?.Notes === 'string');
  for (const step of steps) {
    const result = await emulator.control.actAs('admin@example.com', { method: 'PATCH', path: `/VaultItem/${step.guid}`, body: { Notes: step.desired.Notes } });
    if (result.status >= 300) throw new Error(`setup: PATCH /VaultItem/${step.guid} answered ${result.status}`);
  }
  return steps.length;
}
/**
 * Setup, before the tour: the account has a "Night shift" group whose members were given a 22:00-07:00 duty
 * schedule in the web app (the service's AddDutyScheduleForAllMembers: a copy on each member). configs/people.yaml
 * starts the shift at 23:00, so the plan's on-call preview calls out 22:00-23:00 as newly uncovered, every day.
 */
async function stageNightShift() {
  const act = async (method, path, body) => {
    const result = await emulator.control.actAs('admin@example.com', { method, path, ...(body === undefined ? {} : { body }) });
    if (result.status >= 300) throw new Error(`setup: ${method} ${path} answered ${result.status}`);
    return result.body;
  };
  // Sam keeps Amsterdam time, as Vera does: the shift is counted on their clock.
  const sam = await act('GET', `/Operator/${SEEDED.colleague.guid}`);
  await act('PUT', `/Operator/${SEEDED.colleague.guid}`, { ...sam, TimeZoneId: 3 });
  const group = await act('POST', '/OperatorGroup', { Description: 'Night shift' });
  for (const member of [SEEDED.viewer.guid, SEEDED.colleague.guid]) await act('POST', `/OperatorGroup/${group.OperatorGroupGuid}/Member/${member}`);
  await act('POST', `/OperatorGroup/${group.OperatorGroupGuid}/DutySchedule/AddDutyScheduleForAllMembers`, { ScheduleMode: 'Daily', StartTime: '22:00', EndTime: '07:00' });
}

let failed = false;
try {
  console.log(`${bold('monsync demo')}: the emulator runs the demo account at ${emulator.url}`);
  console.log('(user demo / demo-password; the config tree is configs/, one file per topic, comments teach the format)');

  await stageNightShift();
  const staged = await stageEarlierApply();
  console.log(`(setup: ${staged} vault items were given fingerprint markers, as a past apply leaves them; the shop password has changed since;`);
  console.log(' the Night shift group was given a 22:00-07:00 duty schedule in the web app, which configs/people.yaml starts at 23:00)');

  heading('1. validate: schema, references, secrets by reference only; no API request');
  const validate = await monsync(['validate', '--config', 'configs']);
  if (validate.code !== 0) throw new Error(`monsync validate exited ${validate.code}`);
  // configs/ breaks one warning-severity rule on purpose (the Blog's interval) and excuses the Blog from another with
  // a waiver: the demo shows the warning, passes, and shows nothing for the waived rule.
  if (!/warning POLICY_WARNING: checkInterval: monitor `Blog`/.test(validate.err)) throw new Error('monsync validate showed no policy warning for the Blog\'s interval');
  if (/requiredErrorConditions: monitor `Blog`/.test(validate.err)) throw new Error('monsync validate reported the rule the Blog\'s waiver excuses');
  console.log('As expected: a policy warning (the Blog checks less often than the policy asks), and nothing for the rule its waiver excuses.');

  heading('2. plan: what apply would change in the live account');
  const plan = await monsync(['plan', '--config', 'configs', '--out', show(jsonFile)]);
  if (plan.code !== 0 && plan.code !== 3) throw new Error(`monsync plan exited ${plan.code}`);

  heading('3. the same plan as a pull-request comment (markdown)');
  mkdirSync(outDir, { recursive: true });
  const markdown = await monsync(['plan', '--config', 'configs', '--format', 'markdown'], { echo: false });
  if (markdown.code !== 0 && markdown.code !== 3) throw new Error(`monsync plan --format markdown exited ${markdown.code}: ${markdown.err}`);
  writeFileSync(markdownFile, markdown.out);
  console.log(`wrote ${show(markdownFile)} (${markdown.out.length} characters) and the plan JSON ${show(jsonFile)}`);

  heading('What the plan shows');
  const saved = JSON.parse(readFileSync(jsonFile, 'utf8'));
  const { summary } = saved;
  const steps = saved.steps ?? [];
  const list = (action) => steps.filter((step) => step.action === action).map((step) => `${step.kind} ${step.key}`);
  const drifted = steps.filter((step) => step.drift !== undefined);
  const lines = [
    `creates   ${summary.create}: objects declared in configs/ that the account lacks${list('create').length ? ` (${list('create').slice(0, 4).join(', ')}${list('create').length > 4 ? ', ...' : ''})` : ''}`,
    `updates   ${summary.update}: fields that differ, each shown before -> after${list('update').length ? ` (${list('update').slice(0, 4).join(', ')}${list('update').length > 4 ? ', ...' : ''})` : ''}`,
    `deletes   ${summary.delete}: live objects no file declares, in kinds with prune: true`,
    `ensures   ${summary.ensure}: alert-definition activation, re-asserted on every apply`,
    `unchanged ${summary.unchanged}: equal once server defaults and read-only fields are set aside`,
  ];
  for (const step of drifted) {
    const who = step.drift.operatorName ?? step.drift.lastModifiedByOperatorId ?? 'another operator';
    lines.push(`drift     ${step.kind} ${step.key}: changed outside git by ${who}${step.drift.lastModifiedDate ? ` at ${step.drift.lastModifiedDate}` : ''}; the plan puts it back`);
  }
  for (const entry of saved.unmanaged ?? []) lines.push(`unmanaged ${entry.kind} ${entry.key}: live, declared nowhere, kept because its kind has prune: false`);
  for (const subject of saved.onCall?.subjects ?? []) {
    const lost = (subject.uncovered ?? []).reduce((sum, gap) => sum + gap.hours, 0);
    if (lost > 0) lines.push(`on call   ${subject.key}: nobody on duty in ${lost} hours of the next 7 days where someone was (from ${subject.uncovered[0].from}); the week grids are above`);
  }
  for (const definition of saved.paging?.definitions ?? []) {
    const levels = (definition.after ?? definition.before)?.levels.filter((level) => level.active) ?? [];
    const reach = levels.map((level) => `level ${level.id} ${level.reaches === undefined ? 'reaches operators not read' : `reaches ${level.reaches.length}`}`).join(', ');
    lines.push(`paged     ${definition.key}: ${definition.before === undefined ? 'new' : 'changed'}; ${reach} (groups expanded; the paths, people and hours are above, and a Mermaid diagram in ${show(markdownFile)})`);
  }
  for (const finding of (saved.policy ?? []).filter((f) => f.rule === 'alertsReachSomeone')) lines.push(`policy    ${finding.message} (a ${finding.severity}; the other definition's waiver excuses it)`);
  if (!saved.safe) lines.push(`UNSAFE    ${saved.violations.map((violation) => violation.message).join('; ')}`);
  console.log(lines.map((line) => `  ${line}`).join('\n'));

  heading(`4. apply the saved plan: ${show(jsonFile)}`);
  // The saved plan is the reviewed one: apply re-reads the account and refuses it if anything changed since.
  // --auto-approve because nobody is asked in a script; --verify plans again afterwards and fails if anything remains.
  const applyArgs = ['apply', show(jsonFile), '--config', 'configs', '--auto-approve', '--verify'];
  if (!saved.safe) {
    console.log(`The plan is over the safety thresholds (${saved.violations.map((violation) => violation.message).join('; ')}):`);
    console.log('this demo reviewed it above and passes --allow-unsafe deliberately.');
    applyArgs.push('--allow-unsafe');
  } else {
    console.log('The plan is within the safety thresholds, so no --allow-unsafe is needed.');
  }
  const applied = await monsync(applyArgs);
  if (applied.code !== 0) throw new Error(`monsync apply exited ${applied.code}`);

  heading('5. protect: a delete that no option allows (this step expects the refusal)');
  // A copy of configs/ in which someone deleted the declaration of a monitor that `protect: ["monitor:Shop *"]` guards.
  const gone = 'Shop search API';
  const copy = join(outDir, 'configs-without-shop-search');
  rmSync(copy, { recursive: true, force: true });
  cpSync(join(root, 'configs'), copy, { recursive: true });
  const shopFile = join(copy, 'monitors', 'shop.yaml');
  writeFileSync(shopFile, readFileSync(shopFile, 'utf8').replace(/\n {2}- Name: Shop search API\n[\s\S]*?(?=\n {2}- Name: )/, '\n'));
  const groupsFile = join(copy, 'groups.yaml');
  writeFileSync(groupsFile, readFileSync(groupsFile, 'utf8').replace(`, ${gone}`, ''));
  console.log(`${show(copy)} is configs/ without the monitor "${gone}" (and its group membership); monsync.yaml protects it (monitor:Shop *).`);
  const writesBefore = emulator.control.requestLog().entries.filter((entry) => entry.method !== 'GET').length;
  const refusedPlan = await monsync(['plan', '--config', show(copy)]);
  if (refusedPlan.code !== 1 || !refusedPlan.out.includes('REFUSED')) throw new Error(`the plan of a protected delete should be refused with exit 1, but it exited ${refusedPlan.code}`);
  const refusedApply = await monsync(['apply', '--config', show(copy), '--auto-approve', '--allow-unsafe']);
  const writes = emulator.control.requestLog().entries.filter((entry) => entry.method !== 'GET').length - writesBefore;
  if (refusedApply.code !== 1 || writes !== 0) throw new Error(`apply --allow-unsafe of a protected delete should be refused with exit 1 and no write, but it exited ${refusedApply.code} after ${writes} writes`);
  console.log(`As expected: plan exited 1 and apply --allow-unsafe exited 1 with ${writes} writes (the emulator's request log). To delete "${gone}", a reviewed change first narrows protect.`);

  heading('6. plan again: the account still matches configs/');
  const again = await monsync(['plan', '--config', 'configs', '--detailed-exitcode']);
  if (again.code !== 0) throw new Error(`monsync plan --detailed-exitcode exited ${again.code} after apply (2 would mean changes remain)`);
  console.log(`No changes (exit 0 with --detailed-exitcode). The ${summary.ensure} ensure steps are alert-definition activations, re-asserted on every apply by design.`);

  const files = [readFileSync(markdownFile, 'utf8'), readFileSync(jsonFile, 'utf8')];
  const leaked = Object.entries({ ...secrets, OLD_SHOP_PASSWORD }).filter(([, value]) => [...captured, ...files].some((text) => text.includes(value)));
  console.log(
    leaked.length === 0
      ? `\nSecrets: the vault values came from ${Object.keys(secrets).join(', ')}; none appears in any output, ${show(markdownFile)} or ${show(jsonFile)} (checked).`
      : `\nSECRET LEAK: ${leaked.map(([name]) => name).join(', ')} found in the output`,
  );
  if (leaked.length > 0) failed = true;
  console.log(`\nNext: open ${show(markdownFile)}, edit configs/ and run \`npx pnpm@10 monsync plan --config configs\` (then \`monsync apply\`) against your own emulator`);
  console.log('(`npx pnpm@10 emulator --seed demo` prints its URL; export MONSYNC_API_URL, MONSYNC_API_USERNAME=demo, MONSYNC_API_PASSWORD=demo-password,');
  console.log(` MONSYNC_OPERATOR=admin@example.com and the ${Object.keys(secrets).length} DEMO_* variables). A fresh emulator has no fingerprint markers, so that first plan`);
  console.log(' also updates both vault items: an edit, under the safety thresholds (they need a share and a count of a kind, see README "Safety").');
} catch (error) {
  failed = true;
  console.error(`\ndemo failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await emulator.close();
}
process.exit(failed ? 1 : 0);
