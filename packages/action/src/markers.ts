/**
 * Hidden first lines by which the action finds what it wrote before. Each names the config folder, so that a
 * repository with two trees keeps two comments. The folder is percent-encoded (slashes kept): a `>` could end the
 * HTML comment early, and the marker must match exactly, not as a prefix of a deeper folder's marker.
 */
function folderValue(label: string): string {
  return encodeURIComponent(label).replace(/%2F/g, '/');
}

export function planMarker(label: string): string {
  return `<!-- monsync:plan config=${folderValue(label)} -->`;
}

export function applyMarker(label: string): string {
  return `<!-- monsync:apply config=${folderValue(label)} -->`;
}

export function driftMarker(label: string): string {
  return `<!-- monsync:drift config=${folderValue(label)} -->`;
}

/**
 * Whether a comment or issue body is one the action wrote for `marker`: the marker is its first line, as every body
 * the action writes has it. A body that only mentions or quotes the marker further down (a reviewer asking how the
 * bot finds its comment, a quote reply) belongs to someone else and is never updated, closed or deleted.
 */
export function carriesMarker(body: string | null | undefined, marker: string): boolean {
  if (typeof body !== 'string') return false;
  const end = body.indexOf('\n');
  return (end === -1 ? body : body.slice(0, end)).trim() === marker;
}

export function acceptMarker(label: string): string {
  return `<!-- monsync:accept config=${folderValue(label)} -->`;
}
