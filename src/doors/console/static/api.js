// The console's calls to brow: JSON over fetch and server-sent event streams, carrying the token when the page has one.

const token = document.querySelector('meta[name="brow-token"]')?.getAttribute('content') ?? '';

/** A console API URL with the token (EventSource cannot send headers). */
export function apiUrl(path, params = {}) {
  const u = new URL(`/console/api/${path}`, location.origin);
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
  if (token) u.searchParams.set('token', token);
  return u.toString();
}

/** GET or POST JSON; resolves with the body, rejects with an Error carrying the server's message. */
export async function call(path, body) {
  const res = await fetch(apiUrl(path), {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok || json.ok === false) {
    const err = new Error(json.data?.message ?? json.content ?? `HTTP ${res.status}`);
    err.code = json.data?.error_code;
    throw err;
  }
  return json;
}

/** Open a server-sent event stream; `handlers` maps event names to callbacks of the parsed data. */
export function stream(path, handlers, params = {}) {
  const es = new EventSource(apiUrl(path, params));
  for (const [name, fn] of Object.entries(handlers)) {
    if (name === 'open' || name === 'error') es.addEventListener(name, fn);
    else es.addEventListener(name, (e) => fn(JSON.parse(e.data)));
  }
  return es;
}
