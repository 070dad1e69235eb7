export interface RequestLogEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  /** `METHOD /Route/{param}`, or `METHOD (unmatched)`. */
  route: string;
  status: number;
  fault?: string;
  operatorGuid?: string;
}

export interface RequestLogSnapshot {
  total: number;
  counts: Record<string, number>;
  entries: RequestLogEntry[];
}

/** Keeps counts for every request and the most recent entries (bounded, so long runs stay small). */
export class RequestLog {
  private total = 0;
  private readonly counts = new Map<string, number>();
  /** Ring buffer of the most recent entries; `time` is kept as epoch ms and formatted only when read. */
  private ring: Array<LiveEntry | undefined> = [];
  private next = 0;

  constructor(
    private readonly format: (ms: number) => string,
    private readonly maxEntries = 50_000,
  ) {}

  start(method: string, path: string, route: string, timeMs: number): { status: number; fault?: string; operatorGuid?: string } {
    this.total += 1;
    this.counts.set(route, (this.counts.get(route) ?? 0) + 1);
    const entry: LiveEntry = { seq: this.total, timeMs, method, path, route, status: 0 };
    if (this.ring.length < this.maxEntries) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.maxEntries;
    return entry;
  }

  snapshot(): RequestLogSnapshot {
    const full = this.ring.length === this.maxEntries;
    const ordered = full ? [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)] : this.ring;
    const entries: RequestLogEntry[] = [];
    for (const e of ordered) {
      if (!e) continue;
      const { timeMs, ...rest } = e;
      entries.push({ ...rest, time: this.format(timeMs) });
    }
    return { total: this.total, counts: Object.fromEntries(this.counts), entries };
  }

  clear(): void {
    this.total = 0;
    this.counts.clear();
    this.ring = [];
    this.next = 0;
  }
}

interface LiveEntry extends Omit<RequestLogEntry, 'time'> {
  timeMs: number;
}
