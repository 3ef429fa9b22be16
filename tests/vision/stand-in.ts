/**
 * A STAND-IN for a vision model: no model can run on this machine, so the tests talk to this local
 * HTTP server on 127.0.0.1, which speaks the OpenAI chat-completions protocol (POST
 * /v1/chat/completions) and answers deterministically. It checks each request the way a real server
 * would need it (a model name, a text part, an image_url data URL holding a real PNG/JPEG) and records
 * what it saw so the tests can assert on it. It does not look at the image's content: for
 * browser_find_visual it reads the label list and the target from the prompt and picks the label by
 * the target's colour word, knowing the fixture's left-to-right order (labels are numbered top to
 * bottom, left to right), so a test that clicks the returned ref proves brow's label → ref mapping.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface SeenImage {
  format: string;
  width: number;
  height: number;
  /** Pixels close to the magenta (#e0115f) brow draws labels in. */
  labelPixels: number;
}

export interface SeenRequest {
  authorization: string | undefined;
  model: string;
  text: string;
  image: SeenImage;
}

export type Answer = { status: number; body: unknown } | { hang: true };

export interface StandIn {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  seen: SeenRequest[];
  /** Most requests in flight at once. */
  maxInFlight: number;
  /** Hold each answer this long (ms), to let concurrent calls overlap if brow allowed it. */
  delayMs: number;
  /** Replace the default answer for the next requests (null = default). */
  override: ((req: SeenRequest) => Answer | Promise<Answer>) | null;
  close(): Promise<void>;
}

/** The fixture swatches/…, left to right. */
const ORDER = ['blue', 'red', 'green'];

const completion = (content: string) => ({
  id: 'stand-in',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

/** The default answers: a description for a question, a label for a find. */
function defaultAnswer(req: SeenRequest): Answer {
  const labels = req.text.match(/Labels on this screenshot: ([^\n]*)\./)?.[1]?.split(', ');
  if (!labels) {
    const q = req.text.match(/Question: (.*)/)?.[1] ?? '';
    const i = req.image;
    return {
      status: 200,
      body: completion(`Stand-in analysis of a ${i.width}×${i.height} ${i.format} image. Question was: ${q}`),
    };
  }
  const target = (req.text.match(/Target: (.*)/)?.[1] ?? '').toLowerCase();
  const i = ORDER.findIndex((c) => target.includes(c));
  if (target.includes('invented')) {
    return { status: 200, body: completion('{"label": "A99", "evidence": "a label I made up"}') };
  }
  if (i < 0 || !labels[i]) {
    return { status: 200, body: completion('{"label": null, "evidence": "no such swatch"}') };
  }
  // wrapped in a code fence with a lead-in, as chatty models do
  const json = JSON.stringify({ label: labels[i], evidence: `the ${ORDER[i]} square` });
  return { status: 200, body: completion(`Here it is:\n\`\`\`json\n${json}\n\`\`\``) };
}

async function readImage(url: unknown): Promise<SeenImage> {
  const m = typeof url === 'string' ? url.match(/^data:(image\/(?:png|jpeg));base64,(.+)$/) : null;
  if (!m) throw new Error('image_url.url is not a PNG/JPEG data URL');
  const bytes = Buffer.from(m[2]!, 'base64');
  const meta = await sharp(bytes).metadata();
  if (`image/${meta.format === 'jpeg' ? 'jpeg' : meta.format}` !== m[1])
    throw new Error(`data URL says ${m[1]}, bytes are ${meta.format}`);
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let labelPixels = 0;
  for (let p = 0; p < data.length; p += info.channels) {
    const [r, g, b] = [data[p]!, data[p + 1]!, data[p + 2]!];
    if (Math.abs(r - 0xe0) < 40 && g < 60 && Math.abs(b - 0x5f) < 40) labelPixels++;
  }
  return { format: meta.format!, width: meta.width!, height: meta.height!, labelPixels };
}

/** Check a request as a chat-completions server would; returns what it asked. */
async function parseRequest(req: IncomingMessage, raw: string): Promise<SeenRequest> {
  const body = JSON.parse(raw) as { model?: unknown; messages?: { content?: unknown }[] };
  if (typeof body.model !== 'string' || !body.model) throw new Error('model is missing');
  const parts = body.messages?.[0]?.content;
  if (!Array.isArray(parts)) throw new Error('messages[0].content is not a list of parts');
  const text = parts.find((p) => p?.type === 'text')?.text;
  const image = parts.find((p) => p?.type === 'image_url')?.image_url?.url;
  if (typeof text !== 'string' || !text) throw new Error('no text part');
  return { authorization: req.headers.authorization, model: body.model, text, image: await readImage(image) };
}

export async function startStandIn(): Promise<StandIn> {
  let inFlight = 0;
  const hanging = new Set<ServerResponse>();
  const state: Omit<StandIn, 'baseUrl' | 'close'> = { seen: [], maxInFlight: 0, delayMs: 0, override: null };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
          return;
        }
        inFlight++;
        state.maxInFlight = Math.max(state.maxInFlight, inFlight);
        try {
          let seen: SeenRequest;
          try {
            seen = await parseRequest(req, Buffer.concat(chunks).toString('utf8'));
          } catch (e) {
            res.writeHead(400, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { message: `stand-in refused the request: ${String(e)}` } }));
            return;
          }
          state.seen.push(seen);
          const answer = await (state.override ?? defaultAnswer)(seen);
          if ('hang' in answer) {
            hanging.add(res);
            res.on('close', () => hanging.delete(res));
            return;
          }
          if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
        } finally {
          inFlight--;
        }
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  }) as StandIn;
}
