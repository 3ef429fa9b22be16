/** Network control for a session: routes (block, fulfil, continue with headers), offline, headers, credentials, origin lists. */
import { z } from 'zod';
import { BrowserError } from '../core/errors.js';
import type { Session } from '../core/session/session.js';
import { sessionIdField, sessionIdOut, sessionOf } from './common.js';
import { defineCapability } from './define.js';

const scope = {
  session_id: sessionIdField,
  page_id: z.string().min(1).optional().describe("A page: its session's network"),
};

const headersField = z
  .record(z.string().min(1).max(256), z.string().max(8192))
  .refine((h) => Object.keys(h).length <= 50, 'at most 50 headers');

/**
 * A read-only session may narrow what its pages reach (block routes, origin lists, offline) but
 * not change what they are sent or shown (fulfilled responses, headers, credentials, emulation).
 */
export function refuseInReadOnly(session: Session, what: string): void {
  if (session.readOnly) {
    throw new BrowserError(
      'read_only',
      `Session ${session.id} is read-only; ${what} would change what its pages get.`,
      {
        hint: 'In a read-only session only block routes, origin lists and offline are allowed; start a session without read_only for the rest.',
      },
    );
  }
}

const routeOut = z
  .object({
    session_id: sessionIdOut,
    routes: z
      .array(z.looseObject({ pattern: z.string().describe('Pattern') }))
      .describe('Active routes, first match wins'),
  })
  .describe('Routes');

type RouteView = { pattern: string; action: string; hits: number; times_left?: number };

async function routeViews(session: Session): Promise<RouteView[]> {
  const { networkState } = await import('../core/network/network-control.js');
  return networkState(session).routes.map((r) => ({
    pattern: r.pattern,
    action: r.action,
    hits: r.hits,
    ...(r.times !== undefined ? { times_left: r.times - r.hits } : {}),
  }));
}

const routeLines = (routes: RouteView[]) =>
  routes.length === 0
    ? ['No routes.']
    : routes.map(
        (r) =>
          `- ${r.pattern} → ${r.action} (${r.hits} hit${r.hits === 1 ? '' : 's'}${r.times_left !== undefined ? `, ${r.times_left} left` : ''})`,
      );

export const routeCap = defineCapability({
  name: 'browser_route',
  title: 'Route requests',
  description:
    "Block, fulfil (fake a response) or continue (set headers) a session's requests matching a URL pattern, in all its pages and frames. Newest wins; logged.",
  group: 'network',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: true },
  output: routeOut,
  positional: ['pattern', 'action'],
  input: z.object({
    ...scope,
    pattern: z
      .string()
      .min(1)
      .max(2000)
      .describe('URL glob over the whole URL (** any, * any but /), e.g. "**/api/*"; without * a substring'),
    action: z.enum(['block', 'fulfill', 'continue']).describe('What matching requests get'),
    status: z.number().int().min(100).max(599).optional().describe('fulfill: status (default 200)'),
    headers: headersField.optional().describe('fulfill: response headers; continue: request headers set'),
    body: z.string().max(1_000_000).optional().describe('fulfill: response body'),
    content_type: z.string().min(1).max(256).optional().describe('fulfill: Content-Type'),
    times: z.number().int().min(1).max(10_000).optional().describe('Retire after this many matches'),
  }),
  async handle(input, ctx) {
    const misplaced = [
      input.action !== 'fulfill' && input.status !== undefined ? 'status' : null,
      input.action !== 'fulfill' && input.body !== undefined ? 'body' : null,
      input.action !== 'fulfill' && input.content_type !== undefined ? 'content_type' : null,
      input.action === 'block' && input.headers !== undefined ? 'headers' : null,
    ].filter((f): f is string => f !== null);
    if (misplaced.length > 0) {
      throw new BrowserError(
        'invalid_request',
        `${misplaced.join(', ')} do not apply to action "${input.action}".`,
        {
          hint: 'status, body and content_type go with "fulfill"; headers with "fulfill" (response) or "continue" (request).',
        },
      );
    }
    const session = sessionOf(ctx, input);
    if (input.action !== 'block') refuseInReadOnly(session, `a "${input.action}" route`);
    const { addRoute } = await import('../core/network/network-control.js');
    await addRoute(session, {
      pattern: input.pattern,
      action: input.action,
      status: input.status,
      headers: input.headers,
      body: input.body,
      content_type: input.content_type,
      times: input.times,
    });
    const routes = await routeViews(session);
    return {
      text: [
        `Route added in session ${session.id}: ${input.pattern} → ${input.action}. It applies to every page of the session, now and later.`,
        ...routeLines(routes),
      ].join('\n'),
      data: { session_id: session.id, routes },
    };
  },
});

export const unrouteCap = defineCapability({
  name: 'browser_unroute',
  title: 'Remove routes',
  description: 'Remove the route with this pattern, or every route of the session.',
  group: 'network',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: true },
  output: routeOut.extend({ removed: z.number().describe('Routes removed') }),
  positional: ['pattern'],
  input: z.object({
    ...scope,
    pattern: z.string().min(1).optional().describe('Exactly as given to browser_route; omit: all'),
  }),
  async handle(input, ctx) {
    const session = sessionOf(ctx, input);
    const { networkState, removeRoutes } = await import('../core/network/network-control.js');
    if (
      input.pattern !== undefined &&
      !networkState(session).routes.some((r) => r.pattern === input.pattern)
    ) {
      const known = networkState(session).routes.map((r) => JSON.stringify(r.pattern));
      throw new BrowserError('invalid_request', `No route with pattern ${JSON.stringify(input.pattern)}.`, {
        hint: known.length
          ? `Routes: ${known.slice(0, 10).join(', ')}; omit pattern to remove all.`
          : 'The session has no routes.',
      });
    }
    const removed = await removeRoutes(session, input.pattern);
    const routes = await routeViews(session);
    return {
      text: [
        `Removed ${removed} route${removed === 1 ? '' : 's'} from session ${session.id}.`,
        ...routeLines(routes),
      ].join('\n'),
      data: { session_id: session.id, removed, routes },
    };
  },
});

export const setNetworkCap = defineCapability({
  name: 'browser_set_network',
  title: 'Set network conditions',
  description:
    "Offline, extra request headers, HTTP basic credentials, origin allow/block lists (frames, workers, WebSockets) for a session's pages. Omitted fields stay.",
  group: 'network',
  tier: 'more',
  replay: false,
  world: 'open',
  annotations: { readOnly: false, destructive: true, idempotent: true },
  output: z
    .looseObject({
      session_id: sessionIdOut,
      network: z.looseObject({}).describe('Settings now (no secrets)'),
    })
    .describe('Settings'),
  input: z.object({
    ...scope,
    offline: z.boolean().optional().describe('Every request fails as offline'),
    extra_headers: headersField.optional().describe('Sent with every request ({} clears)'),
    credentials: z
      .object({
        username: z.string().min(1).max(1000).describe('User'),
        password: z.string().max(1000).describe('Password'),
      })
      .optional()
      .describe('HTTP basic auth answers'),
    allowed_origins: z
      .array(z.string().min(1).max(500))
      .max(100)
      .optional()
      .describe('Only these origins/hosts ("https://a.com", "a.com", "*.a.com"); [] clears'),
    blocked_origins: z
      .array(z.string().min(1).max(500))
      .max(100)
      .optional()
      .describe('Refuse these; [] clears'),
    reset: z.boolean().default(false).describe('Clear every setting first (routes stay)'),
  }),
  async handle(input, ctx) {
    const { checkOriginEntries } = await import('../core/network/policy.js');
    if (input.allowed_origins) checkOriginEntries('allowed_origins', input.allowed_origins);
    if (input.blocked_origins) checkOriginEntries('blocked_origins', input.blocked_origins);
    const session = sessionOf(ctx, input);
    if (input.extra_headers && Object.keys(input.extra_headers).length > 0)
      refuseInReadOnly(session, 'extra headers');
    if (input.credentials) refuseInReadOnly(session, 'credentials');
    const { updateSettings } = await import('../core/network/network-control.js');
    const patch: Parameters<typeof updateSettings>[1] = input.reset
      ? {
          offline: false,
          extra_headers: null,
          credentials: null,
          allowed_origins: null,
          blocked_origins: null,
        }
      : {};
    if (input.offline !== undefined) patch.offline = input.offline;
    if (input.extra_headers !== undefined)
      patch.extra_headers = Object.keys(input.extra_headers).length ? input.extra_headers : null;
    if (input.credentials !== undefined) patch.credentials = input.credentials;
    if (input.allowed_origins !== undefined)
      patch.allowed_origins = input.allowed_origins.length ? input.allowed_origins : null;
    if (input.blocked_origins !== undefined)
      patch.blocked_origins = input.blocked_origins.length ? input.blocked_origins : null;
    const s = await updateSettings(session, patch);
    // header values and the password can be secrets: answers name them, never show them
    const network = {
      offline: s.offline,
      extra_header_names: s.extra_headers ? Object.keys(s.extra_headers) : [],
      credentials_user: s.credentials?.username ?? null,
      allowed_origins: s.allowed_origins,
      blocked_origins: s.blocked_origins,
    };
    const lines = [
      `Network of session ${session.id} (every page, now and later):`,
      `- offline: ${s.offline ? 'yes' : 'no'}`,
      `- extra headers: ${network.extra_header_names.join(', ') || 'none'}`,
      `- basic auth: ${s.credentials ? `as ${s.credentials.username}` : 'none'}`,
      `- allowed origins: ${s.allowed_origins?.join(', ') ?? 'any'}`,
      `- blocked origins: ${s.blocked_origins?.join(', ') ?? 'none'}`,
    ];
    return { text: lines.join('\n'), data: { session_id: session.id, network } };
  },
});
