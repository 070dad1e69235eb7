/**
 * What both benchmarks need of the emulator: it runs in a child process, so its CPU is not counted as the
 * client's and this process's RSS is what `monsync` itself holds.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * Starts `monsync-emulator --port 0 --seed empty --profile PROFILE --latency MS [flags]`; resolves once it prints
 * its URL. The default profile, strict, pages GET /Monitor with Cursor as the spec says; `published` answers one bare
 * array, as the service's published definition does.
 */
export function startEmulatorProcess(latencyMs, { profile = 'strict', flags = [] } = {}) {
  const bin = fileURLToPath(new URL('../../../emulator/dist/bin.js', import.meta.url));
  const child = spawn(process.execPath, [bin, '--port', '0', '--seed', 'empty', '--profile', profile, '--latency', String(latencyMs), ...flags], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (!match) reject(new Error(`unexpected first line from the emulator: ${line}`));
      else resolve({ child, url: match[1], control: match[1].replace(/\/v4$/, '/__emulator') });
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
}

/** One request to the emulator's control API (`base` is its `/__emulator` root). */
export async function control(base, method, path, body) {
  const res = await globalThis.fetch(`${base}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

/** CPU time (ms) of a child process so far, from /proc (Linux); undefined elsewhere. */
export function childCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** The machine's CPU time counters (Linux `/proc/stat`, in ticks), or undefined elsewhere. */
export function machineCpu() {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    return { total: ticks.slice(0, 8).reduce((a, b) => a + b, 0), steal: ticks[7] ?? 0 };
  } catch {
    return undefined;
  }
}

/**
 * The share of the machine's CPU time a hypervisor gave to other guests between two `machineCpu()` readings: on
 * a shared virtual machine every wall-clock figure stretches with it, so a benchmark prints it beside them.
 */
export function stealShare(before, after) {
  if (before === undefined || after === undefined || after.total === before.total) return undefined;
  return (after.steal - before.steal) / (after.total - before.total);
}
