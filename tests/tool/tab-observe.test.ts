/** tab.observe() and tab.id(n): seed 000's observation JSON, ids that live as long as their elements. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolHarness, type ToolHarness } from './helpers.js';

let h: ToolHarness;

beforeAll(async () => {
  h = await toolHarness();
  await h.toolOk({ action: 'open', url: h.server.url('tool/tab.html'), wait_until: 'load' });
}, 180_000);

afterAll(async () => {
  await h?.close();
});

const value = async (code: string) => (await h.run(code)).data.value as any;
const failure = async (code: string) => {
  const o = await h.tool({ action: 'run', code });
  expect(o.ok).toBe(false);
  return o.data as Record<string, any>;
};

describe('tab.observe', () => {
  it('returns url, title, viewport, scroll and interactive elements', async () => {
    const obs = await value('return tab.observe()');
    expect(obs.url).toBe(h.server.url('tool/tab.html'));
    expect(obs.title).toBe('Tab helpers');
    expect(obs.viewport).toEqual({ width: 1365, height: 768, deviceScaleFactor: 1.25 });
    expect(obs.scroll).toMatchObject({ x: 0, y: 0, width: 1365, height: 768 });
    expect(obs.scroll.scrollHeight).toBeGreaterThan(2500);
    const byName = (role: string, name: string) =>
      obs.elements.find((e: any) => e.role === role && e.name === name);
    expect(byName('textbox', 'Name')).toMatchObject({ value: 'old', states: [] });
    expect(byName('textbox', 'Notes').states).toContain('multiline');
    expect(byName('checkbox', 'I agree').states).toContain('checked=false');
    expect(byName('combobox', 'Plan')).toMatchObject({ value: 'Free' });
    // seed 000's entry fields description and keyshortcuts, when the element has them
    expect(byName('button', 'Save')).toMatchObject({
      description: 'Stores the form',
      keyshortcuts: 'Control+S',
    });
    expect(byName('link', 'Next page').keyshortcuts).toBeUndefined();
    expect(byName('link', 'Next page')).toBeTruthy();
    // the same-origin frame is walked too
    expect(byName('button', 'Inner button')).toBeTruthy();
    // only interactive elements by default: no heading, no paragraph
    expect(obs.elements.some((e: any) => e.role === 'heading')).toBe(false);
    const ids = obs.elements.map((e: any) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((n: unknown) => Number.isInteger(n) && (n as number) > 0)).toBe(true);
  });

  it('includeAll adds non-interactive elements; viewportOnly drops what is off screen', async () => {
    const all = await value('return tab.observe({ includeAll: true })');
    expect(
      all.elements.some((e: any) => e.role === 'heading' && e.name === 'Tab helpers' && e.level === 1),
    ).toBe(true);
    const onScreen = await value('return tab.observe({ viewportOnly: true })');
    expect(onScreen.elements.some((e: any) => e.name === 'Save')).toBe(true);
    expect(onScreen.elements.some((e: any) => e.name === 'Bottom button')).toBe(false);
    const full = await value('return tab.observe()');
    expect(full.elements.some((e: any) => e.name === 'Bottom button')).toBe(true);
  });

  it('keeps an element id across observations and reports state changes', async () => {
    const r = await value(`
      const a = (await tab.observe()).elements.find((e) => e.name === 'I agree');
      await (await tab.id(a.id)).click();
      const b = (await tab.observe()).elements.find((e) => e.name === 'I agree');
      return { a, b };`);
    expect(r.b.id).toBe(r.a.id);
    expect(r.b.states).toContain('checked=true');
  });
});

describe('tab.id', () => {
  it('returns a live element handle for an observed id', async () => {
    const r = await value(`
      const save = (await tab.observe()).elements.find((e) => e.name === 'Sign in');
      const el = await tab.id(save.id);
      await el.click();
      return [await el.evaluate((e) => e.id), await page.$eval('#out', (e) => e.textContent)];`);
    expect(r).toEqual(['signin', 'signed in']);
  });

  it('clicks an element inside the frame by id', async () => {
    const r = await value(`
      const inner = (await tab.observe()).elements.find((e) => e.name === 'Inner button');
      await (await tab.id(inner.id)).click();
      return page.frames()[1].$eval('#inner', (e) => e.textContent);`);
    expect(r).toBe('Inner clicked');
  });

  it('unknown id → ref_not_found "Unknown element id N. Run tab.observe()…"', async () => {
    const e = await failure('await tab.id(999999)');
    expect(e.error_code).toBe('ref_not_found');
    expect(e.message).toMatch(/^Unknown element id 999999\. Run tab\.observe\(\)/);
  });

  it('an id whose element was removed → stale_ref "Element id N is stale"', async () => {
    const id = await value(`return (await tab.observe()).elements.find((e) => e.name === 'Victim').id;`);
    await h.run(`await tab.click('#remove');`);
    const e = await failure(`await tab.id(${id})`);
    expect(e).toMatchObject({ error_code: 'stale_ref', reason: 'detached' });
    expect(e.message).toMatch(new RegExp(`^Element id ${id} is stale`));
    // a later observation never gives that number to another element
    const ids = await value('return (await tab.observe({ includeAll: true })).elements.map((e) => e.id)');
    expect(ids).not.toContain(id);
  });

  it('ids of a document the tab navigated away from are stale; numbers are not reused', async () => {
    const before = await value('return (await tab.observe()).elements.map((e) => e.id)');
    await h.run(`await tab.goto(${JSON.stringify(h.server.url('tool/article.html'))});`);
    const e = await failure(`await tab.id(${before[0]})`);
    expect(e).toMatchObject({ error_code: 'stale_ref', reason: 'navigated' });
    await h.run(`await tab.goto(${JSON.stringify(h.server.url('tool/tab.html'))});`);
    const after = await value('return (await tab.observe()).elements.map((e) => e.id)');
    expect(after.filter((n: number) => before.includes(n))).toEqual([]);
  });

  it('accepts an id wherever a selector goes', async () => {
    const r = await value(`
      const name = (await tab.observe()).elements.find((e) => e.name === 'Name');
      await tab.fill(name.id, 'by id');
      return page.$eval('#name', (e) => e.value);`);
    expect(r).toBe('by id');
  });
});
