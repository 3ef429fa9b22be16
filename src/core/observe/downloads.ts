/** Downloads: saved in the session's folder under a sanitised name, reported with size, type and sha256. */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { CDPSession } from 'puppeteer-core';
import type { DownloadRecord } from './records.js';

export interface DownloadOwner {
  pageId: string;
  sessionId: string;
  dir: string;
  /** The browser context the download runs in (to cancel it). */
  contextId: string | undefined;
  record(d: DownloadRecord): void;
  updated(d: DownloadRecord): void;
}

const MIME: Record<string, string> = {
  '.csv': 'text/csv',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.html': 'text/html',
  '.xml': 'application/xml',
};

/** A filename with no path parts or odd characters, never empty, never hidden. */
export function sanitizeFilename(name: string): string {
  const base = basename(name.replace(/\\/g, '/'))
    .replace(/[^\w.\- ()[\]]+/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 200);
  return base || 'download';
}

function uniquePath(dir: string, name: string): string {
  let candidate = join(dir, name);
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 1; existsSync(candidate); i++) candidate = join(dir, `${stem} (${i})${ext}`);
  return candidate;
}

const sha256 = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(path)
      .on('data', (c) => h.update(c))
      .on('end', () => resolve(h.digest('hex')))
      .on('error', reject);
  });

/**
 * Listen to a browser-level CDP session's download events; `owner(frameId)` finds who asked. A
 * download that grows past `maxBytes` (or announces more) is cancelled, its partial file removed,
 * and its record says resource_limit.
 */
export function trackDownloads(
  cdp: CDPSession,
  owner: (frameId: string) => DownloadOwner | null,
  maxBytes: number,
): void {
  const live = new Map<string, { rec: DownloadRecord; who: DownloadOwner }>();
  cdp.on('Browser.downloadWillBegin', (e) => {
    const who = owner(e.frameId);
    if (!who) return;
    const name = sanitizeFilename(e.suggestedFilename);
    const rec: DownloadRecord = {
      page_id: who.pageId,
      url: e.url,
      suggested_filename: name,
      path: join(who.dir, e.guid),
      state: 'in_progress',
      timestamp: Date.now(),
    };
    live.set(e.guid, { rec, who });
    who.record(rec);
  });
  cdp.on('Browser.downloadProgress', (e) => {
    const hit = live.get(e.guid);
    if (!hit) return;
    if (e.state === 'inProgress') {
      if (Math.max(e.receivedBytes, e.totalBytes) <= maxBytes || hit.rec.error_code) return;
      hit.rec.error_code = 'resource_limit';
      hit.rec.error = `Larger than max_download_bytes (${maxBytes} bytes): cancelled.`;
      void cdp
        .send('Browser.cancelDownload', {
          guid: e.guid,
          ...(hit.who.contextId ? { browserContextId: hit.who.contextId } : {}),
        })
        .catch(() => undefined);
      return;
    }
    live.delete(e.guid);
    const { rec, who } = hit;
    if (e.state === 'canceled') {
      rec.state = 'canceled';
      rmSync(join(who.dir, e.guid), { force: true });
      who.updated(rec);
      return;
    }
    void (async () => {
      const from = join(who.dir, e.guid);
      if (Math.max(e.receivedBytes, e.totalBytes) > maxBytes) {
        // finished before a progress event could stop it
        rmSync(from, { force: true });
        rec.state = 'canceled';
        rec.error_code = 'resource_limit';
        rec.error = `Larger than max_download_bytes (${maxBytes} bytes): removed.`;
        who.updated(rec);
        return;
      }
      const to = uniquePath(who.dir, rec.suggested_filename);
      try {
        renameSync(from, to);
        rec.path = to;
        rec.size = statSync(to).size;
        rec.sha256 = await sha256(to);
      } catch {
        rec.size = e.receivedBytes;
      }
      rec.mime_type = MIME[extname(rec.suggested_filename).toLowerCase()] ?? 'application/octet-stream';
      rec.state = 'completed';
      who.updated(rec);
    })();
  });
}
