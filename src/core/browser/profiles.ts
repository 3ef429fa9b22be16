/**
 * Persistent Chromium profiles (user_data_dir): a session may start in a named profile, a
 * directory brow keeps between runs, so logins, cookies and storage last as in a person's
 * browser. A name from a call resolves under brow's own folder (a model never picks a path on the
 * host); the config key `user_data_dir` (the operator's) may name any directory.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { BrowConfig } from '../config.js';
import { BrowserError } from '../errors.js';

/** Where named profiles live: <data_dir>/chromium-profiles, or ~/.brow/chromium-profiles. */
export function chromiumProfilesRoot(config: Pick<BrowConfig, 'data_dir'>): string {
  return config.data_dir
    ? join(config.data_dir, 'chromium-profiles')
    : join(homedir(), '.brow', 'chromium-profiles');
}

/** The directory of a named profile; invalid_request for a name that is not a plain name. */
export function namedProfileDir(config: Pick<BrowConfig, 'data_dir'>, name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw new BrowserError('invalid_request', `"${name}" is not a profile name.`, {
      hint: 'Use letters, digits, ".", "_" and "-" (up to 64), e.g. "work"; the operator sets a directory with the config key user_data_dir.',
    });
  }
  return join(chromiumProfilesRoot(config), name);
}
