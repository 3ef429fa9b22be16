/** Save a session's state to a profile or workspace file, load it back, and save back when a session stops. */
import { existsSync } from 'node:fs';
import type { BrowConfig } from '../config.js';
import { BrowserError } from '../errors.js';
import type { Session } from '../session/session.js';
import { slot } from '../state-bag.js';
import { readStateFile, stateFilePath, writeStateFile } from './state-file.js';
import { applyState, collectState, countState, type StateCounts } from './state.js';

export interface StateTarget {
  profile?: string | undefined;
  path?: string | undefined;
}

export interface SavedInfo extends StateCounts {
  file: string;
  encrypted: boolean;
  /** IndexedDB databases left out (or left alone on load), by origin and name, with why. */
  skipped: string[];
}

/** Write the session's state (see state.ts for what it holds). */
export async function saveState(
  session: Session,
  config: BrowConfig,
  where: StateTarget,
): Promise<SavedInfo> {
  const file = stateFilePath(config, where, true);
  const { state, skipped } = await collectState(session);
  const { encrypted } = writeStateFile(file, state);
  return { file, encrypted, ...countState(state), skipped };
}

/** Read a state file and restore it into the session. */
export async function loadState(
  session: Session,
  config: BrowConfig,
  where: StateTarget,
): Promise<Omit<SavedInfo, 'encrypted'> & { failed_origins: string[] }> {
  const file = stateFilePath(config, where, false);
  const state = readStateFile(file);
  const { failed_origins, skipped } = await applyState(session, state);
  return { file, ...countState(state), failed_origins, skipped };
}

/** Where a session saves back when it stops (one place per session; the latest call wins). */
const saveBack = slot<{ where: StateTarget | null }>('storage.save-on-stop', () => ({ where: null }));

/** Save the session's state back to `where` when it stops (not after a crash: nothing is left to read). */
export function saveOnStop(session: Session, config: BrowConfig, where: StateTarget): string {
  // resolve now: a bad name or path fails the call that asked, not the stop
  const file = stateFilePath(config, where, true);
  const s = session.state.get(saveBack);
  const first = s.where === null;
  s.where = where;
  if (first) {
    session.stopHooks.add(async () => {
      if (s.where) await saveState(session, config, s.where);
    });
  }
  return file;
}

/**
 * browser_start_session {profile, save_on_stop}: load the profile (a new one is fine when it will
 * be saved back on stop) and register the save back. Returns a sentence for the answer.
 */
export async function startFromProfile(
  session: Session,
  config: BrowConfig,
  profile: string | undefined,
  save: boolean,
): Promise<string> {
  if (profile === undefined) {
    throw new BrowserError('invalid_request', 'save_on_stop needs profile.', {
      hint: 'Pass profile: a name to load from (if saved) and save back to.',
    });
  }
  const file = stateFilePath(config, { profile }, true);
  const words: string[] = [];
  if (existsSync(file) || !save) {
    const r = await loadState(session, config, { profile });
    words.push(`Loaded profile "${profile}": ${r.cookies} cookie(s), storage of ${r.origins} origin(s).`);
  } else {
    words.push(`Profile "${profile}" is new.`);
  }
  if (save) {
    saveOnStop(session, config, { profile });
    words.push('It is saved back when the session stops.');
  }
  return words.join(' ');
}
