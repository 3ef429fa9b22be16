/** An environment report that never launches a browser. */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromeCandidates, chromeVersion, findChrome } from './find-chrome.js';
import { isRoot } from './launch.js';

export interface DoctorIssue {
  what: string;
  enable_how: string;
}

export interface DoctorReport {
  ok: boolean;
  chromium_path: string | null;
  chromium_source: string | null;
  chromium_version: string | null;
  candidates_checked: string[];
  node_version: string;
  running_as_root: boolean;
  display: string | null;
  ffmpeg_path: string | null;
  recording_available: boolean;
  headful_available: boolean;
  issues: DoctorIssue[];
}

/** Find an executable on PATH. */
export function which(cmd: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // keep looking
    }
  }
  return null;
}

export function doctor(executable = ''): DoctorReport {
  const found = findChrome(executable);
  const chrome = found?.path ? found : null;
  const version = chrome ? chromeVersion(chrome.path) : null;
  const ffmpeg = which('ffmpeg');
  const display = process.env.DISPLAY || process.env.WAYLAND_DISPLAY || null;
  const issues: DoctorIssue[] = [];
  if (found?.missing) {
    issues.push({
      what: `${found.missing.path} (from ${found.missing.source}) is not an executable browser.`,
      enable_how: `Fix or unset ${found.missing.source}.`,
    });
  } else if (!chrome) {
    issues.push({
      what: 'No Chromium or Chrome executable found.',
      enable_how: isRoot()
        ? 'apt-get install -y chromium (Debian), or set BROW_CHROME=/path/to/chrome.'
        : 'Install Chromium or Google Chrome with your package manager, or set BROW_CHROME=/path/to/chrome.',
    });
  } else if (!version) {
    issues.push({
      what: `${chrome.path} did not answer --version.`,
      enable_how: 'Check that this Chromium runs on this machine.',
    });
  }
  if (!ffmpeg)
    issues.push({ what: 'ffmpeg is missing: recording is off.', enable_how: 'apt-get install -y ffmpeg' });
  if (!display) {
    issues.push({
      what: 'No display: headful sessions are unavailable (headless works).',
      enable_how: 'Run under a desktop, or start Xvfb (Xvfb :99 & export DISPLAY=:99).',
    });
  }
  return {
    ok: !!chrome && !!version,
    chromium_path: chrome?.path ?? null,
    chromium_source: chrome?.source ?? null,
    chromium_version: version,
    candidates_checked: chromeCandidates(executable).map((c) => `${c.path} (${c.source})`),
    node_version: process.version,
    running_as_root: isRoot(),
    display,
    ffmpeg_path: ffmpeg,
    recording_available: !!ffmpeg,
    headful_available: !!display,
    issues,
  };
}
