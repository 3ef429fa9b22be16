/** browser_export_script and browser_replay_script's file side: the session's log as text, scripts read and written in the workspace. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { BrowserError } from '../errors.js';
import { workspacePath, workspaceRoot } from '../paths.js';
import type { Session } from '../session/session.js';
import { actionLog } from './log.js';
import { buildScript, renderCli, renderTypescript, type ReplayScript, type ScriptFormat } from './script.js';

export interface Exported {
  script: ReplayScript;
  text: string;
  /** Logged calls left out: they failed. */
  skipped: number;
}

/** The session's action log as a script in `format` (`movesPages`: see buildScript). */
export function exportScript(
  session: Session,
  format: ScriptFormat,
  movesPages: (tool: string) => boolean,
): Exported {
  const log = session.state.get(actionLog);
  if (log.entries.length === 0) {
    throw new BrowserError('invalid_request', `Session ${session.id} has no logged actions to export.`, {
      hint: 'Open a page and act on it (browser_open_page, browser_click…) first; then export.',
    });
  }
  const script = buildScript(log.entries, movesPages, session.id);
  const text =
    format === 'json'
      ? `${JSON.stringify(script, null, 2)}\n`
      : format === 'brow-cli'
        ? renderCli(script)
        : renderTypescript(script);
  return { script, text, skipped: log.entries.filter((e) => !e.ok).length };
}

/** Write a script into the workspace (0600: a flow may name private pages); returns the absolute path. */
export function writeScript(root: string, path: string, text: string): string {
  const abs = workspacePath(workspaceRoot(root), path, false);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text, { mode: 0o600 });
  return abs;
}

/** Read a script from the workspace. */
export function readScript(root: string, path: string): string {
  return readFileSync(workspacePath(workspaceRoot(root), path, true), 'utf8');
}
