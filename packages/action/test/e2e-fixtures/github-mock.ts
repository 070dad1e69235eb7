import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the mock GitHub REST API received. */
export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  authorization: string | undefined;
  body: string;
}

export interface MockComment {
  id: number;
  issue: number;
  body: string;
  user: { login: string; type: string };
  html_url: string;
  created_at: string;
  updated_at: string;
}

export interface GitHubMock {
  /** Base URL for GITHUB_API_URL (no trailing slash). */
  url: string;
  requests: RecordedRequest[];
  /** Requests that matched no route (answered 404), as `METHOD path`. */
  unmatched(): string[];
  comments(issue: number): MockComment[];
  addComment(issue: number, body: string, login?: string): MockComment;
  /** The files GET /pulls/{n}/files lists for pull request `issue` (none until set). */
  setPullFiles(issue: number, files: readonly string[]): void;
  close(): Promise<void>;
}

const PER_PAGE_DEFAULT = 30;
const FIXED_TIME = '2026-01-05T10:00:00Z';

/**
 * A small in-memory GitHub REST API on 127.0.0.1: issue and pull request comments (list with page/per_page and a
 * Link header, create, get, update), enough for the action's plan comment. Every request is recorded; anything else
 * answers 404 and is listed by unmatched(), so a test sees an endpoint it did not expect.
 */
export async function startGitHubMock(repository: string): Promise<GitHubMock> {
  const requests: RecordedRequest[] = [];
  const misses: string[] = [];
  const store: MockComment[] = [];
  const pullFiles = new Map<number, string[]>();
  let nextId = 1000;
  let base = '';

  const addComment = (issue: number, body: string, login = 'github-actions[bot]'): MockComment => {
    nextId += 1;
    const comment: MockComment = {
      id: nextId,
      issue,
      body,
      user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
      html_url: `https://github.test/${repository}/pull/${issue}#issuecomment-${nextId}`,
      created_at: FIXED_TIME,
      updated_at: FIXED_TIME,
    };
    store.push(comment);
    return comment;
  };
  const view = (comment: MockComment): Omit<MockComment, 'issue'> & { issue_url: string; url: string } => {
    const { issue, ...rest } = comment;
    return { ...rest, issue_url: `${base}/repos/${repository}/issues/${issue}`, url: `${base}/repos/${repository}/issues/comments/${comment.id}` };
  };

  const send = (res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void => {
    const text = JSON.stringify(payload);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
    res.end(text);
  };

  const route = (req: IncomingMessage, body: string, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', base);
    const method = req.method ?? 'GET';
    const prefix = `/repos/${repository}`;
    const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : null;
    const list = path === null ? null : /^\/issues\/(\d+)\/comments$/.exec(path);
    const one = path === null ? null : /^\/issues\/comments\/(\d+)$/.exec(path);

    // The workflow token cannot ask GET /user who it is.
    if (url.pathname === '/user' && method === 'GET') return send(res, 403, { message: 'Resource not accessible by integration' });
    // GraphQL's viewer does answer an installation token: the bot it writes as.
    if (url.pathname === '/graphql' && method === 'POST') return send(res, 200, { data: { viewer: { login: 'github-actions[bot]', __typename: 'Bot' } } });
    const files = path === null ? null : /^\/pulls\/(\d+)\/files$/.exec(path);
    if (files !== null && method === 'GET') {
      return send(res, 200, (pullFiles.get(Number(files[1])) ?? []).map((filename) => ({ filename, status: 'modified' })));
    }
    if (list !== null && method === 'GET') {
      const issue = Number(list[1]);
      const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? PER_PAGE_DEFAULT) || PER_PAGE_DEFAULT));
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      const all = store.filter((comment) => comment.issue === issue);
      const last = Math.max(1, Math.ceil(all.length / perPage));
      const link = (p: number): string => {
        const next = new URL(url.toString());
        next.searchParams.set('per_page', String(perPage));
        next.searchParams.set('page', String(p));
        return next.toString();
      };
      const links: string[] = [];
      if (page < last) links.push(`<${link(page + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
      if (page > 1) links.push(`<${link(1)}>; rel="first"`, `<${link(page - 1)}>; rel="prev"`);
      send(res, 200, all.slice((page - 1) * perPage, page * perPage).map(view), links.length > 0 ? { link: links.join(', ') } : {});
      return;
    }
    if (list !== null && method === 'POST') {
      const text = (JSON.parse(body) as { body?: unknown }).body;
      if (typeof text !== 'string') return send(res, 422, { message: 'body is required' });
      send(res, 201, view(addComment(Number(list[1]), text)));
      return;
    }
    if (one !== null) {
      const comment = store.find((entry) => entry.id === Number(one[1]));
      if (comment === undefined) return send(res, 404, { message: 'Not Found' });
      if (method === 'GET') return send(res, 200, view(comment));
      if (method === 'PATCH') {
        const text = (JSON.parse(body) as { body?: unknown }).body;
        if (typeof text !== 'string') return send(res, 422, { message: 'body is required' });
        comment.body = text;
        return send(res, 200, view(comment));
      }
    }
    misses.push(`${method} ${url.pathname}`);
    send(res, 404, { message: 'Not Found (GitHub mock: no such route)', documentation_url: 'https://docs.github.com/rest' });
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', authorization: req.headers.authorization, body });
      try {
        route(req, body, res);
      } catch (error) {
        send(res, 500, { message: `GitHub mock: ${error instanceof Error ? error.message : String(error)}` });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    unmatched: () => [...misses],
    comments: (issue) => store.filter((comment) => comment.issue === issue),
    addComment,
    setPullFiles: (issue, files) => void pullFiles.set(issue, [...files]),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
