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
  private entries: RequestLogEntry[] = [];

  constructor(private readonly maxEntries = 50_000) {}

  start(method: string, path: string, route: string, time: string): RequestLogEntry {
    this.total += 1;
    this.counts.set(route, (this.counts.get(route) ?? 0) + 1);
    const entry: RequestLogEntry = { seq: this.total, time, method, path, route, status: 0 };
    this.entries.push(entry);
    if (this.entries.length > this.maxEntries) this.entries = this.entries.slice(-Math.floor(this.maxEntries / 2));
    return entry;
  }

  snapshot(): RequestLogSnapshot {
    return { total: this.total, counts: Object.fromEntries(this.counts), entries: this.entries.map((e) => ({ ...e })) };
  }

  clear(): void {
    this.total = 0;
    this.counts.clear();
    this.entries = [];
  }
}
