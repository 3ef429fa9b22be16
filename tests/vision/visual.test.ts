/**
 * browser_visual_query and browser_find_visual against real Chromium and a fixture page. No vision
 * model can run on this machine, so the model is a local STAND-IN server speaking the OpenAI
 * chat-completions protocol (./stand-in.ts); it checks what brow sends and answers deterministically.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config-load.js';
import { harness, type Harness } from '../helpers.js';
import { startStandIn, type StandIn } from './stand-in.js';

const KEY_ENV = 'BROW_TEST_VISION_KEY';
const SECRET = 'sk-test-5f1c0de-never-shown';

let h: Harness;
let model: StandIn;

const configure = (extra: Record<string, unknown> = {}) =>
  h.rt.updateConfig({
    vision: { base_url: model.baseUrl, model: 'stand-in-vl', api_key_env: KEY_ENV, ...extra },
  });

/** Nothing of the key in what a caller sees. */
const expectNoSecret = (o: { content: string; data: unknown }) => {
  expect(o.content).not.toContain(SECRET);
  expect(JSON.stringify(o.data)).not.toContain(SECRET);
};

beforeAll(async () => {
  process.env[KEY_ENV] = SECRET;
  h = await harness();
  model = await startStandIn();
});

afterAll(async () => {
  delete process.env[KEY_ENV];
  await model?.close();
  await h?.close();
});

beforeEach(() => {
  model.seen.length = 0;
  model.override = null;
  model.delayMs = 0;
  model.maxInFlight = 0;
  h.rt.updateConfig({ vision: {} });
});

describe('unconfigured', () => {
  it('both tools answer capability_unavailable with how to configure a model', async () => {
    const pageId = await h.open('vision/swatches.html');
    for (const [name, input] of [
      ['browser_visual_query', { page_id: pageId, query: 'What colours are shown?' }],
      ['browser_find_visual', { page_id: pageId, target: 'the red square' }],
    ] as const) {
      const e = await h.err(name, input);
      expect(e.code).toBe('capability_unavailable');
      expect(e.data.hint).toContain('vision.base_url');
      expect(e.data.hint).toContain('http://127.0.0.1:11434/v1');
    }
  });

  it('an api_key_env naming an unset variable is capability_unavailable', async () => {
    const pageId = await h.open('vision/swatches.html');
    configure({ api_key_env: 'BROW_TEST_VISION_KEY_UNSET' });
    const e = await h.err('browser_visual_query', { page_id: pageId, query: 'x' });
    expect(e.code).toBe('capability_unavailable');
    expect(e.content).toContain('BROW_TEST_VISION_KEY_UNSET');
    expect(model.seen).toHaveLength(0);
  });
});

describe('browser_visual_query', () => {
  it('sends the query and a real image of the right size, with the key as Bearer; answers the analysis', async () => {
    const pageId = await h.open('vision/swatches.html');
    configure();
    const o: any = await h.call('browser_visual_query', {
      page_id: pageId,
      query: 'Which colours are the squares?',
    });
    expect(o.ok, o.content).toBe(true);
    expect(model.seen).toHaveLength(1);
    const req = model.seen[0]!;
    expect(req.model).toBe('stand-in-vl');
    expect(req.authorization).toBe(`Bearer ${SECRET}`);
    expect(req.text).toContain('Which colours are the squares?');
    const shot = o.data.screenshot;
    expect([req.image.width, req.image.height]).toEqual([shot.image_width, shot.image_height]);
    expect(`image/${req.image.format}`).toBe(shot.mime_type);
    expect(req.image.labelPixels).toBeLessThan(30); // no labels on a query's image (a few JPEG edge pixels)
    expect(o.data.analysis).toBe(
      `Stand-in analysis of a ${shot.image_width}×${shot.image_height} ${req.image.format} image. Question was: Which colours are the squares?`,
    );
    expect(o.content).toContain(o.data.analysis);
    expect(o.data.page_id).toBe(pageId);
    expect(o.images ?? []).toHaveLength(0);
    expect(o.data.output_path).toBeUndefined();
    expectNoSecret(o);
  });

  it('full_page captures the whole page', async () => {
    const pageId = await h.open('read/tall.html');
    configure();
    const o = await h.ok('browser_visual_query', { page_id: pageId, query: 'q', full_page: true });
    expect(o.screenshot.full_page).toBe(true);
    expect(o.screenshot.region.height).toBeGreaterThan(800);
  });

  it('one model call at a time: concurrent calls queue', async () => {
    const a = await h.open('vision/swatches.html');
    const b = await h.open('vision/swatches.html');
    configure();
    model.delayMs = 300;
    const outs = await Promise.all([
      h.call('browser_visual_query', { page_id: a, query: 'first' }),
      h.call('browser_visual_query', { page_id: b, query: 'second' }),
      h.call('browser_visual_query', { page_id: a, query: 'third' }),
    ]);
    expect(outs.map((o) => o.ok)).toEqual([true, true, true]);
    expect(model.seen).toHaveLength(3);
    expect(model.maxInFlight).toBe(1);
  });
});

describe('browser_find_visual', () => {
  it('maps the label the model names to a live ref; clicking it hits the right element', async () => {
    const pageId = await h.open('vision/swatches.html');
    configure();
    const o: any = await h.call('browser_find_visual', { page_id: pageId, target: 'the red square' });
    expect(o.ok, o.content).toBe(true);
    const req = model.seen[0]!;
    expect(req.text).toContain('Target: the red square');
    expect(req.text).toContain('Labels on this screenshot: A1, A2, A3.');
    expect(req.image.labelPixels).toBeGreaterThan(300); // the labels are drawn on the image sent
    expect([req.image.width, req.image.height]).toEqual([
      o.data.screenshot.image_width,
      o.data.screenshot.image_height,
    ]);
    expect(o.data).toMatchObject({ target: 'the red square', label: 'A2', evidence: 'the red square' });
    expect(o.data.ref).toBe(o.data.label_to_ref.A2);
    const pages = await h.ok('browser_list_pages');
    const page = pages.pages.find((p: any) => p.page_id === pageId);
    expect(o.data.document_generation).toBe(page.document_generation);
    expectNoSecret(o);

    await h.ok('browser_click', { page_id: pageId, ref: o.data.ref });
    const picked = await h.ok('browser_evaluate', {
      page_id: pageId,
      expression: "document.getElementById('picked').textContent",
    });
    expect(picked.value).toBe('red');

    // and another target maps to another swatch
    const green = await h.ok('browser_find_visual', { page_id: pageId, target: 'the green one' });
    await h.ok('browser_click', { page_id: pageId, ref: green.ref });
    expect(
      (
        await h.ok('browser_evaluate', {
          page_id: pageId,
          expression: "document.getElementById('picked').textContent",
        })
      ).value,
    ).toBe('green');
  });

  it('a label the model invents is ref_not_found, never a made-up ref', async () => {
    const pageId = await h.open('vision/swatches.html');
    configure();
    const e = await h.err('browser_find_visual', { page_id: pageId, target: 'an invented thing' });
    expect(e.code).toBe('ref_not_found');
    expect(e.content).toContain('"A99"');
    expect(e.content).toContain('browser_find');
    expect(e.data.ref).toBeUndefined();
  });

  it('the model finding nothing is ref_not_found with its evidence', async () => {
    const pageId = await h.open('vision/swatches.html');
    configure();
    const e = await h.err('browser_find_visual', { page_id: pageId, target: 'the purple square' });
    expect(e.code).toBe('ref_not_found');
    expect(e.content).toContain('no such swatch');
  });

  it('a page changed since the capture is stale_ref', async () => {
    const pageId = await h.open('vision/swatches.html');
    configure();
    model.override = async () => {
      // the page navigates while the model "thinks" (brow does not hold the page meanwhile)
      await h.ok('browser_navigate', { page_id: pageId, url: h.server.url('vision/swatches.html?again') });
      return { status: 200, body: { choices: [{ message: { content: '{"label":"A1","evidence":"x"}' } }] } };
    };
    const e = await h.err('browser_find_visual', { page_id: pageId, target: 'the blue square' });
    expect(model.seen).toHaveLength(1);
    expect(e.code).toBe('stale_ref');
  });
});

describe('model server failures are typed errors', () => {
  it('server down → connection_failed naming the server', async () => {
    const pageId = await h.open('vision/swatches.html');
    const gone = await startStandIn();
    await gone.close();
    h.rt.updateConfig({ vision: { base_url: gone.baseUrl, model: 'm' } });
    const e = await h.err('browser_visual_query', { page_id: pageId, query: 'x' });
    expect(e.code).toBe('connection_failed');
    expect(e.content).toContain(new URL(gone.baseUrl).origin);
    expect(e.data.hint).toContain('vision.base_url');
  });

  it('non-2xx → action_failed with the status, the key blanked even when the server echoes it', async () => {
    const pageId = await h.open('vision/swatches.html');
    configure();
    model.override = (req) => ({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${req.authorization?.slice(7)}` } },
    });
    const e = await h.err('browser_find_visual', { page_id: pageId, target: 'the red square' });
    expect(e.code).toBe('action_failed');
    expect(e.content).toContain('HTTP 401');
    expect(e.data.status).toBe(401);
    expect(e.data.hint).toContain(KEY_ENV);
    expectNoSecret(e);
  });

  it('a malformed answer → action_failed', async () => {
    const pageId = await h.open('vision/swatches.html');
    configure();
    model.override = () => ({ status: 200, body: { result: 'not a chat completion' } });
    const e = await h.err('browser_visual_query', { page_id: pageId, query: 'x' });
    expect(e.code).toBe('action_failed');
    expect(e.content).toContain('no answer text');
  });

  it('a model that does not answer in vision.timeout_ms → timeout', async () => {
    const pageId = await h.open('vision/swatches.html');
    configure({ timeout_ms: 1000 });
    model.override = () => ({ hang: true });
    const e = await h.err('browser_visual_query', { page_id: pageId, query: 'x' });
    expect(e.code).toBe('timeout');
    expect(e.data.hint).toContain('vision.timeout_ms');
    // the queue is free again
    model.override = null;
    expect((await h.call('browser_visual_query', { page_id: pageId, query: 'y' })).ok).toBe(true);
  });
});

describe('vision configuration', () => {
  it('is one object: file, BROW_VISION or flags; a key instead of a variable name is invalid_config', () => {
    const env = {
      BROW_VISION: JSON.stringify({ base_url: 'http://127.0.0.1:11434/v1', model: 'qwen2.5vl:7b' }),
    };
    expect(loadConfig({ env }).config.vision).toEqual({
      base_url: 'http://127.0.0.1:11434/v1',
      model: 'qwen2.5vl:7b',
      api_key_env: '',
      timeout_ms: 120_000,
    });
    expect(loadConfig({ env: {} }).config.vision.base_url).toBe('');
    const bad = (vision: unknown) => {
      try {
        loadConfig({ env: {}, flags: { vision } as never });
      } catch (e) {
        return e as { code: string; message: string };
      }
      throw new Error('accepted');
    };
    const key = bad({ base_url: 'http://x/v1', model: 'm', api_key_env: SECRET });
    expect(key.code).toBe('invalid_config');
    expect(key.message).toContain('vision.api_key_env');
    expect(key.message).not.toContain(SECRET);
    expect(bad({ base_url: 'http://x/v1' }).message).toContain('vision.model');
    expect(bad({ base_url: 'ollama' }).message).toContain('vision.base_url');
    expect(bad({ base_url: 'http://x/v1', model: 'm', key: 'k' }).message).toContain('"key"');
  });
});
