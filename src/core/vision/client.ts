/**
 * A small client for an OpenAI-compatible chat-completions endpoint with image input
 * (`POST {base_url}/chat/completions`): OpenAI, Ollama, vLLM, llama.cpp's server and LM Studio all
 * speak it. It sends one user message (a text part and an image part as a data URL) and returns
 * the answer's text. Failures become BrowserErrors; the API key is read from the environment at
 * call time and never appears in an answer, an error or a log.
 */
import type { BrowConfig } from '../config.js';
import { BrowserError } from '../errors.js';

export type VisionConfig = BrowConfig['vision'];

export interface VisionImage {
  /** base64 */
  data: string;
  mimeType: string;
}

export interface VisionRequest {
  prompt: string;
  image: VisionImage;
}

/** How to configure a model, for every "not configured" answer. */
export const CONFIGURE_HINT =
  'Configure an OpenAI-compatible vision model: set vision.base_url and vision.model in brow.config.json ' +
  '(e.g. {"vision": {"base_url": "http://127.0.0.1:11434/v1", "model": "qwen2.5vl:7b"}} for Ollama), ' +
  'BROW_VISION (the same JSON) or --vision; for a hosted API add vision.api_key_env, the NAME of the ' +
  'environment variable holding the key. Until then, read the page (browser_read_page, browser_find, ' +
  'browser_list_elements) or take a browser_screenshot.';

/** The configured model, or capability_unavailable saying how to configure one. */
export function visionSettings(config: BrowConfig): VisionConfig {
  const v = config.vision;
  if (!v.base_url) {
    throw new BrowserError(
      'capability_unavailable',
      'No vision model is configured (vision.base_url is empty).',
      {
        hint: CONFIGURE_HINT,
      },
    );
  }
  return v;
}

/** The endpoint: base_url + /chat/completions (a base_url already ending there is used as is). */
export function endpointOf(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(base) ? base : `${base}/chat/completions`;
}

/** The API key from the variable vision.api_key_env names; capability_unavailable when it is unset. */
function apiKey(v: VisionConfig): string | null {
  if (!v.api_key_env) return null;
  const key = process.env[v.api_key_env];
  if (!key) {
    throw new BrowserError(
      'capability_unavailable',
      `vision.api_key_env names ${v.api_key_env}, which is not set in brow's environment.`,
      {
        hint: `Set ${v.api_key_env} to the API key where brow runs, or clear vision.api_key_env for a server without keys.`,
      },
    );
  }
  return key;
}

/** Text with the key (if any) blanked out and cut short: a server's error body is shown to the model. */
function clean(text: string, key: string | null): string {
  const t = key ? text.split(key).join('***') : text;
  const one = t.replace(/\s+/g, ' ').trim();
  return one.length > 300 ? `${one.slice(0, 300)}…` : one;
}

/** The text of a chat-completions answer: choices[0].message.content (a string or text parts). */
export function answerText(body: unknown): string | null {
  const choices = (body as { choices?: unknown })?.choices;
  if (!Array.isArray(choices) || choices.length === 0) return null;
  const content = (choices[0] as { message?: { content?: unknown } })?.message?.content;
  if (typeof content === 'string') return content.trim() || null;
  if (Array.isArray(content)) {
    const text = content
      .map((p) => (typeof (p as { text?: unknown })?.text === 'string' ? (p as { text: string }).text : ''))
      .join('')
      .trim();
    return text || null;
  }
  return null;
}

/**
 * Ask the model about one image; returns its answer text. Ends at vision.timeout_ms or when the
 * signal aborts. Unreachable → connection_failed; non-2xx → action_failed with the status; an answer
 * without text → action_failed; timeout → timeout.
 */
export async function askVision(v: VisionConfig, req: VisionRequest, signal?: AbortSignal): Promise<string> {
  const key = apiKey(v);
  const url = endpointOf(v.base_url);
  const where = new URL(url).origin;
  const body = {
    model: v.model,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: req.prompt },
          { type: 'image_url', image_url: { url: `data:${req.image.mimeType};base64,${req.image.data}` } },
        ],
      },
    ],
    stream: false,
  };
  const timeout = AbortSignal.timeout(v.timeout_ms);
  const signals = signal ? [timeout, signal] : [timeout];
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.any(signals),
    });
    text = await res.text();
  } catch (e) {
    if (timeout.aborted) {
      throw new BrowserError(
        'timeout',
        `The vision model at ${where} did not answer within ${v.timeout_ms} ms.`,
        {
          hint: 'A local model may need longer on its first call (loading); raise vision.timeout_ms or try again.',
        },
      );
    }
    if (signal?.aborted)
      throw signal.reason instanceof Error
        ? signal.reason
        : new BrowserError('timeout', 'The call was cancelled.');
    const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
    const why = cause?.code ?? cause?.message ?? (e instanceof Error ? e.message : String(e));
    throw new BrowserError(
      'connection_failed',
      `Cannot reach the vision model at ${where} (${clean(why, key)}).`,
      {
        hint: `Start the model server (e.g. \`ollama serve\`) or fix vision.base_url (now ${where}).`,
      },
    );
  }
  if (!res.ok) {
    const detail = clean(text, key);
    const fix =
      res.status === 401 || res.status === 403
        ? `Check the API key in ${v.api_key_env || 'the variable vision.api_key_env names (none is set)'}.`
        : res.status === 404
          ? `Check vision.base_url (usually ends in /v1) and that the server has the model "${v.model}".`
          : 'Check the vision model server, then try again.';
    throw new BrowserError(
      'action_failed',
      `The vision model at ${where} answered HTTP ${res.status}${detail ? `: ${detail}` : ''}.`,
      { hint: fix, details: { status: res.status } },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const answer = answerText(parsed);
  if (answer === null) {
    throw new BrowserError(
      'action_failed',
      `The vision model at ${where} gave no answer text (not a chat-completions answer: ${clean(text, key) || 'empty body'}).`,
      {
        hint: 'vision.base_url must be the OpenAI-compatible API root (e.g. …/v1) of a model that takes images.',
      },
    );
  }
  return answer;
}
