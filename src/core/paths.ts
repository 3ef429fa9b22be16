/** Paths a caller may read or write: inside the workspace root only (no `..`, no symlink out). */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { BrowserError } from './errors.js';

export function workspaceRoot(configured: string): string {
  return realpathSync(resolve(configured || process.cwd()));
}

const inside = (root: string, p: string): boolean => {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/**
 * Resolve a caller's path against the workspace root and refuse anything that lands outside it,
 * also through symlinks. `mustExist` for inputs (uploads); outputs may be new files.
 */
export function workspacePath(root: string, p: string, mustExist: boolean): string {
  const abs = resolve(root, p);
  const fail = () =>
    new BrowserError('path_not_allowed', `"${p}" is outside the workspace ${root}.`, {
      hint: `Use a path inside ${root} (relative paths are resolved against it).`,
      details: { path: p, workspace_root: root },
    });
  if (!inside(root, abs)) throw fail();
  if (existsSync(abs)) {
    if (!inside(root, realpathSync(abs))) throw fail();
  } else {
    if (mustExist) {
      throw new BrowserError('invalid_request', `File "${p}" does not exist.`, {
        hint: 'Check the path; it is resolved against the workspace root.',
        details: { path: p },
      });
    }
    let dir = dirname(abs);
    while (!existsSync(dir)) dir = dirname(dir);
    if (!inside(root, realpathSync(dir))) throw fail();
  }
  return abs;
}
