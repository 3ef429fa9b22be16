/** Request and response bodies of a session's newest network entries, read on demand (the handles are kept by observe/kept-requests.ts). */
import { BrowserError } from '../errors.js';
import { KEPT_REQUESTS, keptRequest } from '../observe/kept-requests.js';
import type { StateBag } from '../state-bag.js';

export { KEPT_REQUESTS };
/** The most body text returned by one call. */
export const MAX_BODY_CHARS = 100_000;

export interface BodyPart {
  /** Text, or base64 for binary content. */
  body: string;
  encoding: 'utf8' | 'base64';
  /** Size of the whole body in bytes. */
  bytes: number;
  truncated: boolean;
}

export interface RequestBodies {
  seq: number;
  url: string;
  method: string;
  request_headers: Record<string, string>;
  request_body: BodyPart | null;
  status: number | null;
  response_headers: Record<string, string>;
  response_body: BodyPart | null;
  /** Why a body could not be read (evicted by Chromium, a redirect, still pending, failed). */
  response_body_error?: string;
}

const TEXTUAL =
  /^(text\/|application\/(json|[\w.+-]*\+json|javascript|ecmascript|xml|[\w.+-]*\+xml|x-www-form-urlencoded|graphql))/i;

function part(buf: Buffer, mime: string): BodyPart {
  if (TEXTUAL.test(mime) || mime === '') {
    const text = buf.toString('utf8');
    return {
      body: text.slice(0, MAX_BODY_CHARS),
      encoding: 'utf8',
      bytes: buf.length,
      truncated: text.length > MAX_BODY_CHARS,
    };
  }
  const cut = buf.subarray(0, (MAX_BODY_CHARS / 4) * 3);
  return {
    body: cut.toString('base64'),
    encoding: 'base64',
    bytes: buf.length,
    truncated: cut.length < buf.length,
  };
}

/** Request and response bodies of network entry `seq`; invalid_request when it is no longer kept. */
export async function requestBodies(
  owner: { readonly state: StateBag },
  seq: number,
): Promise<RequestBodies> {
  const req = keptRequest(owner, seq);
  if (!req) {
    throw new BrowserError('invalid_request', `The body of network entry #${seq} is not kept.`, {
      hint: `Bodies are kept for the newest ${KEPT_REQUESTS} requests of a session; read the network log again and pick a recent seq.`,
      details: { seq },
    });
  }
  const reqHeaders = req.headers();
  let requestBody: BodyPart | null = null;
  if (req.hasPostData()) {
    const data = req.postData() ?? (await req.fetchPostData().catch(() => undefined));
    if (data !== undefined) requestBody = part(Buffer.from(data, 'utf8'), reqHeaders['content-type'] ?? '');
  }
  const res = req.response();
  const out: RequestBodies = {
    seq,
    url: req.url(),
    method: req.method(),
    request_headers: reqHeaders,
    request_body: requestBody,
    status: res?.status() ?? null,
    response_headers: res?.headers() ?? {},
    response_body: null,
  };
  if (!res) {
    out.response_body_error = req.failure()?.errorText ?? 'no response (yet)';
    return out;
  }
  if (res.status() >= 300 && res.status() < 400) {
    out.response_body_error = 'a redirect has no body';
    return out;
  }
  try {
    const buf = await res.buffer();
    out.response_body = part(Buffer.from(buf), (res.headers()['content-type'] ?? '').split(';')[0]!.trim());
  } catch (e) {
    out.response_body_error = `Chromium no longer holds this body (${String((e as Error).message ?? e).split('\n')[0]})`;
  }
  return out;
}
