/**
 * The git data and pull request endpoints of one repository as GitHub keeps them, for the drift job's "Accept live
 * changes" pull request. Each `expect*` adds the interceptors of one request to a nock scope, answering from and
 * changing this state.
 */
import { createHash } from 'node:crypto';
import type nock from 'nock';
import { REPOSITORY, SHA } from './harness.js';

export interface FakeCommit {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
}

export interface FakeTree {
  sha: string;
  /** Every file of the tree that a test wrote (the base tree's files are not modelled). */
  files: Map<string, string>;
}

export interface FakePull {
  number: number;
  title: string;
  head: string;
  base: string;
  body: string;
  state: 'open' | 'closed';
  html_url: string;
  comments: string[];
  user: { login: string };
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

export class FakeGit {
  readonly commits = new Map<string, FakeCommit>([[SHA, { sha: SHA, tree: 'a'.repeat(40), parents: [], message: 'main' }]]);
  readonly trees = new Map<string, FakeTree>([['a'.repeat(40), { sha: 'a'.repeat(40), files: new Map() }]]);
  readonly refs = new Map<string, string>();
  readonly pulls: FakePull[] = [];
  #next = 40;

  /** The files a branch's commit changed on top of its base, as a merge would bring them. */
  changedFiles(branch: string): Map<string, string> {
    const head = this.refs.get(`heads/${branch}`);
    const commit = head === undefined ? undefined : this.commits.get(head);
    return commit === undefined ? new Map() : (this.trees.get(commit.tree)?.files ?? new Map());
  }

  expectGetCommit(scope: nock.Scope): void {
    scope.get(new RegExp(`^/repos/${REPOSITORY}/git/commits/[0-9a-f]{40}$`)).reply((uri) => {
      const commit = this.commits.get(uri.split('/').at(-1) ?? '');
      if (commit === undefined) return [404, { message: 'Not Found' }];
      return [200, { sha: commit.sha, tree: { sha: commit.tree }, parents: commit.parents.map((sha) => ({ sha })), message: commit.message }];
    });
  }

  expectCreateTree(scope: nock.Scope): void {
    scope.post(`/repos/${REPOSITORY}/git/trees`).reply(201, (_uri, body) => {
      const { base_tree: base, tree } = body as { base_tree: string; tree: { path: string; mode: string; type: string; content: string }[] };
      const files = new Map(this.trees.get(base)?.files ?? []);
      for (const entry of tree) {
        if (entry.mode !== '100644' || entry.type !== 'blob') throw new Error(`unexpected tree entry ${JSON.stringify(entry)}`);
        files.set(entry.path, entry.content);
      }
      const sha = sha1(JSON.stringify([base, [...files].sort()]));
      this.trees.set(sha, { sha, files });
      return { sha };
    });
  }

  expectGetRef(scope: nock.Scope, branch: string): void {
    scope.get((path) => decodeURIComponent(path) === `/repos/${REPOSITORY}/git/matching-refs/heads/${branch}`).reply(() => {
      const refs = [...this.refs].filter(([ref]) => ref.startsWith(`heads/${branch}`));
      return [200, refs.map(([ref, sha]) => ({ ref: `refs/${ref}`, object: { sha, type: 'commit' } }))];
    });
  }

  expectCreateCommit(scope: nock.Scope): void {
    scope.post(`/repos/${REPOSITORY}/git/commits`).reply(201, (_uri, body) => {
      const { message, tree, parents } = body as { message: string; tree: string; parents: string[] };
      const sha = sha1(`${message}${tree}${parents.join()}${(this.#next += 1)}`);
      this.commits.set(sha, { sha, tree, parents, message });
      return { sha };
    });
  }

  expectCreateRef(scope: nock.Scope): void {
    scope.post(`/repos/${REPOSITORY}/git/refs`).reply(201, (_uri, body) => {
      const { ref, sha } = body as { ref: string; sha: string };
      if (this.refs.has(ref.replace(/^refs\//, ''))) return [422, { message: 'Reference already exists' }];
      this.refs.set(ref.replace(/^refs\//, ''), sha);
      return { ref, object: { sha } };
    });
  }

  expectUpdateRef(scope: nock.Scope, branch: string): void {
    scope.patch((path) => decodeURIComponent(path) === `/repos/${REPOSITORY}/git/refs/heads/${branch}`).reply(200, (_uri, body) => {
      const { sha, force } = body as { sha: string; force?: boolean };
      if (force !== true) throw new Error('the accept branch is rebuilt on each run and moved with force: true');
      this.refs.set(`heads/${branch}`, sha);
      return { ref: `refs/heads/${branch}`, object: { sha } };
    });
  }

  expectDeleteRef(scope: nock.Scope, branch: string): void {
    scope.delete((path) => decodeURIComponent(path) === `/repos/${REPOSITORY}/git/refs/heads/${branch}`).reply(204, () => {
      this.refs.delete(`heads/${branch}`);
      return '';
    });
  }

  expectListPulls(scope: nock.Scope, branch: string): void {
    const [owner] = REPOSITORY.split('/');
    scope
      .get(`/repos/${REPOSITORY}/pulls`)
      .query({ state: 'open', head: `${owner ?? ''}:${branch}`, per_page: '100' })
      .reply(() => [200, this.pulls.filter((pull) => pull.state === 'open' && pull.head === branch)]);
  }

  expectCreatePull(scope: nock.Scope): void {
    scope.post(`/repos/${REPOSITORY}/pulls`).reply(201, (_uri, body) => {
      const { title, head, base, body: text } = body as { title: string; head: string; base: string; body: string };
      const number = 500 + this.pulls.length;
      // Opened with the workflow token: GitHub names github-actions[bot] as its author.
      const pull: FakePull = { number, title, head, base, body: text, state: 'open', html_url: `https://github.com/${REPOSITORY}/pull/${number}`, comments: [], user: { login: 'github-actions[bot]' } };
      this.pulls.push(pull);
      return pull;
    });
  }

  expectUpdatePull(scope: nock.Scope, number: number): void {
    scope.patch(`/repos/${REPOSITORY}/pulls/${number}`).reply(200, (_uri, body) => {
      const pull = this.pulls.find((p) => p.number === number);
      if (pull === undefined) throw new Error(`no pull request ${number}`);
      const change = body as { body?: string; state?: 'open' | 'closed' };
      if (change.body !== undefined) pull.body = change.body;
      if (change.state !== undefined) pull.state = change.state;
      return pull;
    });
  }

  expectPullComment(scope: nock.Scope, number: number): void {
    scope.post(`/repos/${REPOSITORY}/issues/${number}/comments`).reply(201, (_uri, body) => {
      const pull = this.pulls.find((p) => p.number === number);
      if (pull === undefined) throw new Error(`no pull request ${number}`);
      pull.comments.push((body as { body: string }).body);
      return { id: 7, body: (body as { body: string }).body };
    });
  }

  /** A first push of the branch: base commit, tree, no branch yet, commit, new ref. */
  expectFirstPush(scope: nock.Scope, branch: string): void {
    this.expectGetCommit(scope);
    this.expectCreateTree(scope);
    this.expectGetRef(scope, branch);
    this.expectCreateCommit(scope);
    this.expectCreateRef(scope);
  }

  /** A later push with the same content: base commit, tree, the branch and its commit; nothing written. */
  expectSamePush(scope: nock.Scope, branch: string): void {
    this.expectGetCommit(scope);
    this.expectCreateTree(scope);
    this.expectGetRef(scope, branch);
    this.expectGetCommit(scope);
  }
}
