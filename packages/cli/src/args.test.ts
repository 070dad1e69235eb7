import { describe, expect, it } from 'vitest';
import { closest, dropLeadingSeparator, parseCommandArgs, splitCommand, type OptionSpecs } from './args.js';
import { UsageError } from './errors.js';

const specs: OptionSpecs = {
  format: { type: 'string', choices: ['text', 'json'], description: 'format' },
  out: { type: 'string', value: 'FILE', description: 'out' },
  target: { type: 'string', multiple: true, description: 'target' },
  'detailed-exitcode': { type: 'boolean', description: 'd' },
};

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('argument parsing', () => {
  it('drops one leading -- that pnpm forwards, and only a leading one', () => {
    expect(dropLeadingSeparator(['--', 'plan', '--format', 'json'])).toEqual(['plan', '--format', 'json']);
    expect(dropLeadingSeparator(['plan', '--'])).toEqual(['plan', '--']);
  });

  it('finds the command after global options, skipping the value of --config', () => {
    expect(splitCommand(['--config', 'configs', '--verbose', 'plan', '--format', 'json'])).toEqual({
      before: ['--config', 'configs', '--verbose'],
      command: 'plan',
      rest: ['--format', 'json'],
    });
    expect(splitCommand(['--config=configs', 'validate'])).toEqual({ before: ['--config=configs'], command: 'validate', rest: [] });
    expect(splitCommand(['--help'])).toEqual({ before: ['--help'], command: undefined, rest: [] });
  });

  it('reads string, boolean, repeated and inline values', () => {
    const parsed = parseCommandArgs(['--format=json', '--out', 'plan.json', '--target', 'monitor:a', '--target', 'sla:b', '--detailed-exitcode'], specs, 'plan');
    expect(parsed.values).toEqual({ format: 'json', out: 'plan.json', target: ['monitor:a', 'sla:b'], 'detailed-exitcode': true });
    expect(parsed.positionals).toEqual([]);
  });

  it('rejects an unknown option and suggests the near miss', () => {
    const error = usageError(() => parseCommandArgs(['--fromat', 'json'], specs, 'plan'));
    expect(error.message).toBe("unknown option --fromat for 'monsync plan' (did you mean --format?)");
    expect(error.code).toBe('CLI_USAGE');
  });

  it('rejects a string option without its value, even when another option follows', () => {
    expect(usageError(() => parseCommandArgs(['--out'], specs, 'plan')).message).toBe('option --out needs a value: --out FILE');
    expect(usageError(() => parseCommandArgs(['--out', '--format', 'json'], specs, 'plan')).message).toBe('option --out needs a value: --out FILE');
  });

  it('rejects a value outside the choices, naming them', () => {
    expect(usageError(() => parseCommandArgs(['--format', 'yaml'], specs, 'plan')).message).toBe("option --format: 'yaml' is not one of text, json");
  });

  it('rejects a value given to a boolean option and a single-valued option given twice', () => {
    expect(usageError(() => parseCommandArgs(['--detailed-exitcode=yes'], specs, 'plan')).message).toMatch(/takes no value/);
    expect(usageError(() => parseCommandArgs(['--out', 'a', '--out', 'b'], specs, 'plan')).message).toMatch(/given twice/);
  });

  it('reads a long option written with one dash (as Terraform spells it) as a mistake, naming its two-dash form', () => {
    expect(usageError(() => parseCommandArgs(['-target=monitor:a'], specs, 'plan')).message).toBe(
      "unknown option -target=monitor:a for 'monsync plan' (long options take two dashes: did you mean --target=monitor:a?)",
    );
    expect(usageError(() => parseCommandArgs(['-out', 'plan.json'], specs, 'plan')).message).toBe("unknown option -out for 'monsync plan' (long options take two dashes: did you mean --out?)");
    expect(usageError(() => parseCommandArgs(['-detailed-exitcode'], specs, 'plan')).message).toMatch(/did you mean --detailed-exitcode\?/);
    expect(usageError(() => parseCommandArgs(['-fromat=json'], specs, 'plan')).message).toMatch(/did you mean --format=json\?/);
    expect(usageError(() => parseCommandArgs(['-xyzzy'], specs, 'plan')).message).toBe("unknown option -xyzzy for 'monsync plan' (long options take two dashes)");
  });

  it('still reads a short option with its value attached, and a single-dash word after --', () => {
    const withShort: OptionSpecs = { ...specs, config: { type: 'string', short: 'c', description: 'config' } };
    expect(parseCommandArgs(['-cconfigs'], withShort, 'plan').values).toEqual({ config: 'configs' });
    expect(usageError(() => parseCommandArgs(['-config=x'], withShort, 'plan')).message).toMatch(/did you mean --config=x\?/);
    expect(parseCommandArgs(['--', '-target'], specs, 'plan').positionals).toEqual(['-target']);
  });

  it('suggests only names within two edits', () => {
    expect(closest('pln', ['plan', 'pull'])).toBe('plan');
    expect(closest('deploy', ['plan', 'pull', 'validate'])).toBeUndefined();
  });
});
