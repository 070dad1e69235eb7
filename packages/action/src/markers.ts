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
