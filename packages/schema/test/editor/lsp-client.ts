import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * A minimal Language Server Protocol client over stdio: JSON-RPC 2.0 messages framed with Content-Length
 * headers. Enough to drive a real language server from a test without a client library.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface Waiter {
  method: string;
  predicate: (params: unknown) => boolean;
  resolve: (params: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class LspProtocolError extends Error {
  readonly code = 'LSP_PROTOCOL_ERROR';
}

export class LspClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly waiters = new Set<Waiter>();
  /** Every notification received, so a waiter set up late still sees an earlier one. */
  readonly notifications: Array<{ method: string; params: unknown }> = [];
  private stderr = '';
  private exited = false;

  /** Answers the server's own requests (workspace/configuration, client/registerCapability, ...). */
  onServerRequest: (method: string, params: unknown) => unknown = () => null;

  constructor(command: string, args: readonly string[], cwd: string) {
    this.child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4000);
    });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      const error = new LspProtocolError(`language server exited (code ${code}, signal ${signal}); stderr: ${this.stderr}`);
      for (const pending of this.pending.values()) {
        clearTimeout(pending.timer);
        pending.reject(error);
      }
      this.pending.clear();
      for (const waiter of this.waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(error);
      }
      this.waiters.clear();
    });
    // A closed pipe after exit is expected; without a listener it would crash the test process.
    this.child.stdin.on('error', () => undefined);
  }

  private send(message: JsonRpcMessage): void {
    if (this.exited) throw new LspProtocolError(`language server has exited; stderr: ${this.stderr}`);
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const length = /Content-Length: *(\d+)/i.exec(header)?.[1];
      if (length === undefined) throw new LspProtocolError(`bad LSP header: ${header}`);
      const start = headerEnd + 4;
      const end = start + Number(length);
      if (this.buffer.length < end) return;
      const message = JSON.parse(this.buffer.subarray(start, end).toString('utf8')) as JsonRpcMessage;
      this.buffer = this.buffer.subarray(end);
      this.dispatch(message);
    }
  }

  private dispatch(message: JsonRpcMessage): void {
    if (message.method !== undefined && message.id !== undefined && message.id !== null) {
      let result: unknown = null;
      try {
        result = this.onServerRequest(message.method, message.params);
      } finally {
        this.send({ jsonrpc: '2.0', id: message.id, result: (result ?? null) as Json });
      }
      return;
    }
    if (message.method !== undefined) {
      this.notifications.push({ method: message.method, params: message.params });
      for (const waiter of this.waiters) {
        if (waiter.method === message.method && waiter.predicate(message.params)) {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          waiter.resolve(message.params);
        }
      }
      return;
    }
    if (typeof message.id === 'number') {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error) pending.reject(new LspProtocolError(`${message.error.code}: ${message.error.message}`));
      else pending.resolve(message.result);
    }
  }

  request<T>(method: string, params: unknown, timeoutMs: number): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new LspProtocolError(`no answer to ${method} within ${timeoutMs} ms; stderr: ${this.stderr}`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.send({ jsonrpc: '2.0', id, method, params: params as Json });
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params: params as Json });
  }

  /** The first notification of `method` whose params satisfy `predicate`, already received or still to come. */
  waitForNotification<T>(method: string, predicate: (params: T) => boolean, timeoutMs: number): Promise<T> {
    const seen = this.notifications.find((n) => n.method === method && predicate(n.params as T));
    if (seen) return Promise.resolve(seen.params as T);
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        method,
        predicate: (params) => predicate(params as T),
        resolve: resolve as (params: unknown) => void,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(new LspProtocolError(`no ${method} notification within ${timeoutMs} ms; stderr: ${this.stderr}`));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Polite shutdown, then the process is killed whatever happened (it must never outlive the test). */
  async close(timeoutMs: number): Promise<void> {
    if (!this.exited) {
      try {
        await this.request('shutdown', null, timeoutMs);
        this.notify('exit', null);
      } catch {
        // Killed below either way.
      }
    }
    if (!this.exited) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.child.kill('SIGKILL');
          resolve();
        }, timeoutMs);
        this.child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        if (this.exited) {
          clearTimeout(timer);
          resolve();
        }
      });
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exited;
  }
}
