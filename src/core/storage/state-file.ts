/**
 * Where saved browser state lives and how it is written: a named profile under the data dir, or a
 * file in the workspace; mode 0600, written whole (temp file + rename); AES-256-GCM when
 * BROW_STATE_KEY is set. Nothing here logs a value.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BrowConfig } from '../config.js';
import { BrowserError } from '../errors.js';
import { workspacePath, workspaceRoot } from '../paths.js';
import type { SavedState } from './state.js';

/** The environment variable holding the key saved state is encrypted with. */
export const STATE_KEY_ENV = 'BROW_STATE_KEY';

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Profiles live in <data_dir>/profiles, or ~/.brow/profiles when no data_dir is set (brow's temp dir would not outlive it). */
export function profilesDir(config: BrowConfig): string {
  return config.data_dir ? join(config.data_dir, 'profiles') : join(homedir(), '.brow', 'profiles');
}

/** The file a profile name or a workspace path means (exactly one of them). */
export function stateFilePath(
  config: BrowConfig,
  where: { profile?: string | undefined; path?: string | undefined },
  forWrite: boolean,
): string {
  if (where.profile !== undefined && where.path !== undefined) {
    throw new BrowserError('invalid_request', 'Give profile or path, not both.');
  }
  if (where.profile !== undefined) {
    if (!PROFILE_NAME.test(where.profile)) {
      throw new BrowserError('invalid_request', `"${where.profile}" is not a profile name.`, {
        hint: 'Use letters, digits, dot, dash or underscore (up to 64), starting with a letter or digit.',
        details: { profile: where.profile },
      });
    }
    const file = join(profilesDir(config), `${where.profile}.json`);
    if (!forWrite && !existsSync(file)) {
      const known = listProfiles(config);
      throw new BrowserError('invalid_request', `No saved profile "${where.profile}".`, {
        hint: known.length
          ? `Saved profiles: ${known.join(', ')}.`
          : 'Save one first with browser_save_state {profile}.',
        details: { profile: where.profile },
      });
    }
    return file;
  }
  if (where.path !== undefined) {
    return workspacePath(workspaceRoot(config.workspace_root), where.path, !forWrite);
  }
  throw new BrowserError('invalid_request', 'Give profile (a name) or path (a file in the workspace).');
}

/** The names of the saved profiles. */
export function listProfiles(config: BrowConfig): string[] {
  try {
    return readdirSync(profilesDir(config))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -5))
      .sort();
  } catch {
    return [];
  }
}

interface Envelope {
  brow_state: 1;
  encrypted: 'aes-256-gcm';
  kdf: 'scrypt';
  salt: string;
  iv: string;
  tag: string;
  data: string;
}

const keyFrom = (secret: string, salt: Buffer) => scryptSync(secret, salt, 32);

/** Write state to file, mode 0600, encrypted when BROW_STATE_KEY is set. Returns whether it was encrypted. */
export function writeStateFile(file: string, state: SavedState): { encrypted: boolean } {
  const secret = process.env[STATE_KEY_ENV];
  let body: string;
  if (secret) {
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', keyFrom(secret, salt), iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(state), 'utf8'), cipher.final()]);
    const env: Envelope = {
      brow_state: 1,
      encrypted: 'aes-256-gcm',
      kdf: 'scrypt',
      salt: salt.toString('base64'),
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
    body = JSON.stringify(env);
  } else {
    body = JSON.stringify(state);
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, body, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return { encrypted: !!secret };
}

/** The parts brow reads of a state file are there and of the right kind. */
function checked(file: string, v: unknown): SavedState {
  const s = v as Partial<SavedState>;
  const pairs = (x: unknown) =>
    Array.isArray(x) &&
    x.every((p) => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string');
  const ok =
    Array.isArray(s.cookies) &&
    s.cookies.every((c) => c && typeof c.name === 'string' && typeof c.domain === 'string') &&
    Array.isArray(s.origins) &&
    s.origins.every(
      (o) =>
        o &&
        typeof o.origin === 'string' &&
        pairs(o.local_storage) &&
        pairs(o.session_storage) &&
        (o.indexed_db === undefined || Array.isArray(o.indexed_db)),
    );
  if (!ok) {
    throw new BrowserError(
      'invalid_request',
      `${file} is damaged: its cookies or origins are not as brow wrote them.`,
      {
        hint: 'Save the state again with browser_save_state.',
      },
    );
  }
  return s as SavedState;
}

/** Read a state file; an encrypted one needs BROW_STATE_KEY (the same key it was saved with). */
export function readStateFile(file: string): SavedState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new BrowserError('invalid_request', `${file} is not a brow state file.`, {
      hint: 'Load a file written by browser_save_state.',
      cause: e,
    });
  }
  const obj = parsed as Partial<Envelope & SavedState>;
  const format = (obj as { brow_state?: unknown } | null)?.brow_state;
  if (typeof format === 'number' && format !== 1) {
    throw new BrowserError(
      'version_mismatch',
      `${file} is a brow state file of format ${format}; this brow reads format 1.`,
      {
        hint: 'Load it with the brow version that saved it, or save the state again with this one.',
        details: { format, supported: [1] },
      },
    );
  }
  if (format !== 1) {
    throw new BrowserError('invalid_request', `${file} is not a brow state file.`, {
      hint: 'Load a file written by browser_save_state.',
    });
  }
  if (!obj.encrypted) return checked(file, obj);
  const secret = process.env[STATE_KEY_ENV];
  if (!secret) {
    throw new BrowserError('invalid_request', `${file} is encrypted and ${STATE_KEY_ENV} is not set.`, {
      hint: `Start brow with ${STATE_KEY_ENV} set to the key the state was saved with.`,
      details: { reason: 'key_missing' },
    });
  }
  const env = obj as Envelope;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyFrom(secret, Buffer.from(env.salt, 'base64')),
      Buffer.from(env.iv, 'base64'),
    );
    decipher.setAuthTag(Buffer.from(env.tag, 'base64'));
    const text = Buffer.concat([decipher.update(Buffer.from(env.data, 'base64')), decipher.final()]);
    return checked(file, JSON.parse(text.toString('utf8')));
  } catch {
    throw new BrowserError('invalid_request', `${file} could not be decrypted with ${STATE_KEY_ENV}.`, {
      hint: `Set ${STATE_KEY_ENV} to the key the state was saved with (the file may also be damaged).`,
      details: { reason: 'key_wrong' },
    });
  }
}
