/** What a session's pages said: console entries and requests, from the session's ring buffers. */
import { z } from 'zod';
import { BrowserError } from '../core/errors.js';
import { consoleLine, networkLine, networkView, readConsole, readNetwork } from '../core/read/logs.js';
import { requestBodies, type BodyPart } from '../core/read/request-bodies.js';
import type { Session } from '../core/session/session.js';
import { sessionIdField, sessionIdOut } from './common.js';
import { defineCapability, type CapabilityContext } from './define.js';

const readAnnotations = { readOnly: true, destructive: false, idempotent: false };

/** A ring-buffer read; `entry` and headers instead of a list when one seq was asked for. */
const ringOut = (key: string) =>
  z
    .looseObject({
      session_id: sessionIdOut,
      [key]: z
        .array(z.looseObject({ seq: z.number().describe('Seq') }))
        .optional()
        .describe('Entries'),
      last_seq: z.number().optional().describe('Newest seq'),
    })
    .describe('Entries');

const common = {
  page_id: z.string().min(1).optional().describe("This page's entries; omit: the whole session"),
  session_id: sessionIdField,
  since_seq: z.number().int().min(0).optional().describe('After this seq (an earlier last_seq)'),
  limit: z.number().int().min(1).max(500).default(100).describe('Most entries (newest kept)'),
  clear: z
    .boolean()
    .default(true)
    .describe('Drop what was read: the next read shows only newer entries (false keeps them)'),
};

/** The buffer a read means: one page's entries, or a whole session's. */
function scopeOf(
  ctx: CapabilityContext,
  input: { page_id?: string | undefined; session_id?: string | undefined },
) {
  if (input.page_id) {
    const page = ctx.core.resolvePage(input.page_id, input.session_id, ctx.owner);
    return { session: page.session, pageId: page.id as string | null };
  }
  const session: Session | null = input.session_id
    ? ctx.core.session(input.session_id, ctx.owner)
    : ctx.core.defaultSession(ctx.owner);
  if (!session) {
    throw new BrowserError('session_not_found', 'No session is running, so nothing was recorded.', {
      hint: 'Open a page with browser_open_page first.',
    });
  }
  session.touch();
  return { session, pageId: null };
}

function header(
  kind: string,
  r: { returned_count: number; total_count: number; last_seq: number; dropped: number; cleared: boolean },
) {
  const lines = [
    `${r.returned_count} of ${r.total_count} matching ${kind} entries; last_seq ${r.last_seq}.${
      r.cleared ? ' Cleared: the next read shows only newer entries (clear: false keeps them).' : ''
    }`,
  ];
  if (r.returned_count < r.total_count)
    lines.push(`(older matches left out: raise limit or page with since_seq)`);
  if (r.dropped > 0) lines.push(`(${r.dropped} older entries were dropped by the buffer cap)`);
  return lines;
}

/** One ring-buffer read as model text (header, fenced lines) and data (`console_entries` / `network_entries`). */
function ringAnswer<
  R extends {
    entries: unknown[];
    returned_count: number;
    total_count: number;
    last_seq: number;
    dropped: number;
    cleared: boolean;
  },
>(
  kind: 'console' | 'network',
  sessionId: string,
  pageId: string | null | undefined,
  r: R,
  lines: string[],
  empty: string,
) {
  const body = lines.length === 0 ? [`(${empty})`] : lines;
  const text = [...header(kind, r), '<page-content>', ...body, '</page-content>'].join('\n');
  return {
    text,
    data: {
      session_id: sessionId,
      ...(pageId ? { page_id: pageId } : {}),
      ...r,
      [`${kind}_entries`]: r.entries,
    },
  };
}

export const readConsoleCap = defineCapability({
  name: 'browser_read_console',
  title: 'Read console messages',
  description:
    'Console messages and uncaught exceptions the session recorded (iframes too). Filter by level or regex; page with since_seq.',
  group: 'observe',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: readAnnotations,
  output: ringOut('console_entries'),
  input: z.object({
    ...common,
    pattern: z.string().optional().describe('Regex on the text (case-insensitive)'),
    level: z
      .enum(['log', 'info', 'warning', 'error', 'debug', 'exception'])
      .optional()
      .describe('Only this level (error includes exceptions)'),
  }),
  async handle(input, ctx) {
    const { session, pageId } = scopeOf(ctx, input);
    const r = readConsole(session, {
      pageId,
      pattern: input.pattern,
      level: input.level,
      sinceSeq: input.since_seq,
      limit: input.limit,
      clear: input.clear,
    });
    return ringAnswer(
      'console',
      session.id,
      pageId,
      r,
      r.entries.map(consoleLine),
      'no console entries match',
    );
  },
});

function bodyText(label: string, b: BodyPart | null, error?: string): string[] {
  if (error) return [`${label}: (${error})`];
  if (!b) return [`${label}: (none)`];
  const note = `${b.bytes} bytes${b.encoding === 'base64' ? ', base64' : ''}${b.truncated ? ', truncated' : ''}`;
  return [`${label} (${note}):`, b.body];
}

export const readNetworkCap = defineCapability({
  name: 'browser_read_network',
  title: 'Read network requests',
  description:
    'Requests the session recorded (iframes too), with status and timing; failed_only for what broke; seq (+ include_body) for one in detail.',
  group: 'observe',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: readAnnotations,
  output: ringOut('network_entries'),
  input: z.object({
    ...common,
    pattern: z.string().optional().describe('Regex on the URL (case-insensitive)'),
    failed_only: z.boolean().default(false).describe('Only network errors and HTTP ≥ 400'),
    seq: z.number().int().min(1).optional().describe('One entry with headers'),
    include_body: z.boolean().default(false).describe('With seq: bodies too'),
  }),
  async handle(input, ctx) {
    const { session, pageId } = scopeOf(ctx, input);
    if (input.include_body && input.seq === undefined) {
      throw new BrowserError(
        'invalid_request',
        'include_body needs seq: bodies are read one request at a time.',
        {
          hint: 'Read the network log, then call again with {"seq": <entry seq>, "include_body": true}.',
        },
      );
    }
    if (input.seq !== undefined) {
      const seq = input.seq;
      const entry = session.network.read((e) => e.seq === seq)[0];
      if (!entry) {
        throw new BrowserError('invalid_request', `No network entry #${seq} in session ${session.id}.`, {
          hint: 'Use a seq from a recent browser_read_network answer (old entries leave the buffer).',
        });
      }
      const detail = await requestBodies(session, seq).catch((e) => {
        if (input.include_body) throw e;
        return null;
      });
      const bodies =
        input.include_body && detail
          ? {
              request_body: detail.request_body,
              response_body: detail.response_body,
              ...(detail.response_body_error ? { response_body_error: detail.response_body_error } : {}),
            }
          : {};
      const text = [
        networkLine(entry),
        '<page-content>',
        ...(detail
          ? [
              `Request headers: ${JSON.stringify(detail.request_headers)}`,
              `Response headers: ${JSON.stringify(detail.response_headers)}`,
            ]
          : ['(headers are no longer kept for this entry)']),
        ...(input.include_body && detail
          ? [
              ...bodyText('Request body', detail.request_body),
              ...bodyText('Response body', detail.response_body, detail.response_body_error),
            ]
          : []),
        '</page-content>',
      ].join('\n');
      return {
        text,
        data: {
          session_id: session.id,
          entry: networkView(entry),
          ...(detail
            ? { request_headers: detail.request_headers, response_headers: detail.response_headers }
            : {}),
          ...bodies,
        },
      };
    }
    const r = readNetwork(session, {
      pageId,
      pattern: input.pattern,
      failedOnly: input.failed_only,
      sinceSeq: input.since_seq,
      limit: input.limit,
      clear: input.clear,
    });
    return ringAnswer('network', session.id, pageId, r, r.entries.map(networkLine), 'no requests match');
  },
});
