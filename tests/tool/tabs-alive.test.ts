/**
 * Issue 15: every named tab stays alive (not only the newest), a dialog without a `dialogs`
 * policy fails the run but keeps the tab, bad drag / screenshot targets fail at once, and the
 * waitForResponse predicate gets the response object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolHarness, type ToolHarness } from './helpers.js';

let h: ToolHarness;

beforeAll(async () => {
  h = await toolHarness();
  await h.toolOk({ action: 'open', name: 'main', url: h.server.url('tool/alive.html'), wait_until: 'load' });
  // the newest tab: before the fix, "main" became a hidden background page here
  await h.toolOk({ action: 'open', name: 'two', url: h.server.url('tool/tab.html'), wait_until: 'load' });
}, 180_000);

afterAll(async () => {
  await h?.close();
});

const onMain = async (code: string) => {
  const o = await h.tool({ action: 'run', name: 'main', code, timeout: 30 });
  if (!o.ok) throw new Error(`run on main failed: ${o.content}`);
  return o.data.value as any;
};
const failOn = async (name: string, code: string, timeout = 8) => {
  const o = await h.tool({ action: 'run', name, code, timeout });
  expect(o.ok).toBe(false);
  return o.data as Record<string, any>;
};

describe('an earlier tab stays alive when a later one is open', () => {
  it('is visible, focused and gets animation frames', async () => {
    const r = await onMain(`return tab.evaluate(() => new Promise((done) =>
      requestAnimationFrame(() => done([document.visibilityState, document.hasFocus()]))))`);
    expect(r).toEqual(['visible', true]);
  });

  it('click drives a requestAnimationFrame widget', async () => {
    expect(
      await onMain(`await tab.click('#animate');
        await tab.waitFor('#out:not(:empty)');
        return page.$eval('#out', (e) => e.textContent);`),
    ).toBe('animated');
  });

  it('fill works', async () => {
    expect(await onMain(`await tab.fill('#name', 'new'); return page.$eval('#name', (e) => e.value);`)).toBe(
      'new',
    );
  });

  it('scroll works', async () => {
    const pos = await onMain(`return tab.scroll(0, 400)`);
    expect(pos.y).toBeGreaterThan(0);
    await onMain(`await tab.scroll(0, -5000)`);
  });

  it('drag works', async () => {
    expect(
      await onMain(`await tab.drag('#src', '#dst'); return page.$eval('#out', (e) => e.textContent);`),
    ).toMatch(/^dropped on dst after \d+ moves$/);
  });

  it('waitFor, and waitForUrl / waitForResponse after a click', async () => {
    expect(
      await onMain(
        `await tab.click('#later'); const el = await tab.waitFor('#late'); return el.evaluate((e) => e.id);`,
      ),
    ).toBe('late');
    expect(await onMain(`await tab.click('#push'); return tab.waitForUrl('?step=2')`)).toMatch(/\?step=2$/);
    const r = await onMain(`await tab.click('#fetch');
      const res = await tab.waitForResponse('/echo');
      return { status: res.status(), body: await res.json() };`);
    expect(r).toMatchObject({ status: 200, body: { method: 'POST', body: 'hi' } });
  });

  it('the newest tab works too, and both act at the same time', async () => {
    const [a, b] = await Promise.all([
      onMain(`await tab.click('#animate'); await tab.waitFor('#frames:not(:empty)');
        return tab.evaluate(() => new Promise((d) => requestAnimationFrame(() => d(document.visibilityState))))`),
      h.run(`await tab.click('#signin'); return page.$eval('#out', (e) => e.textContent);`, { name: 'two' }),
    ]);
    expect(a).toBe('visible');
    expect(b.data.value).toBe('signed in');
  });

  it('stays visible after a navigation and a third tab', async () => {
    await h.toolOk({
      action: 'open',
      name: 'three',
      url: h.server.url('tool/article.html'),
      wait_until: 'load',
    });
    const r = await onMain(`await tab.goto(tab.url(), { waitUntil: 'load' });
      return tab.evaluate(() => new Promise((done) =>
        requestAnimationFrame(() => done([document.visibilityState, document.hasFocus()]))))`);
    expect(r).toEqual(['visible', true]);
    await h.toolOk({ action: 'close', name: 'three' });
  });
});

describe('waitForResponse with a predicate', () => {
  it('gives the predicate the response object (url(), status(), request())', async () => {
    const r = await onMain(`await tab.click('#fetch');
      const seen = [];
      const res = await tab.waitForResponse((r) => {
        seen.push(typeof r.url === 'function' && typeof r.status === 'function');
        return r.url().includes('/echo') && r.status() === 200 && r.request().method() === 'POST';
      });
      return { url: res.url(), ok: seen.every(Boolean) };`);
    expect(r.ok).toBe(true);
    expect(r.url).toMatch(/\/echo\?from=alive$/);
  });
});

describe('bad targets fail at once', () => {
  it('drag to a selector that matches nothing', async () => {
    const e = await failOn('main', `await tab.drag('#src', '#nope')`, 20);
    expect(e.error_code).toBe('action_failed');
    expect(e.message).toMatch(/#nope/);
  });

  it('drag from a selector that matches nothing', async () => {
    const e = await failOn('main', `await tab.drag('#nothing', '#dst')`, 20);
    expect(e.error_code).toBe('action_failed');
  });

  it('screenshot of a selector that matches nothing', async () => {
    const e = await failOn('main', `await tab.screenshot({ selector: '#none' })`, 20);
    expect(e.error_code).toBe('action_failed');
    expect(e.message).toMatch(/#none/);
  });
});

describe('a dialog without a dialogs policy', () => {
  it('fails the run naming the dialog, and the tab stays usable', async () => {
    const e = await failOn('main', `await tab.click('#confirm'); await wait(5000);`, 20);
    expect(e.error_code).toBe('dialog_blocking');
    expect(e.message).toMatch(/confirm/);
    expect(e.message).toMatch(/Sure\?/);
    expect(e).toMatchObject({ dialog: 'confirm', dialog_message: 'Sure?' });
    expect(await onMain(`return page.$eval('#out', (e) => e.textContent)`)).toBe('confirm false');
    expect(await onMain(`await tab.fill('#name', 'after'); return page.$eval('#name', (e) => e.value)`)).toBe(
      'after',
    );
  });
});
