/** Half-open intervals of UTC milliseconds, `[start, end)`. */
export type Interval = readonly [number, number];

/** The union of intervals, sorted and with touching intervals merged. */
export function union(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/** What of `a` is not in `b` (both unions, as `union` returns them). */
export function subtract(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const [start, end] of a) {
    let at = start;
    for (const [bs, be] of b) {
      if (be <= at || bs >= end) continue;
      if (bs > at) out.push([at, bs]);
      at = Math.max(at, be);
      if (at >= end) break;
    }
    if (at < end) out.push([at, end]);
  }
  return out;
}

/** How much of [from, to) the intervals (a union) cover. */
export function covered(intervals: readonly Interval[], from: number, to: number): number {
  let total = 0;
  for (const [start, end] of intervals) {
    const s = Math.max(start, from);
    const e = Math.min(end, to);
    if (e > s) total += e - s;
  }
  return total;
}
