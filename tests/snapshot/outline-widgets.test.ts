/**
 * The outline of real-looking widgets, through the runtime on real Chromium (issue 12, points 1, 5,
 * 6 and the outline half of 2): multiline fields and whole values, role-less slider parts, ranges,
 * drag items of mouse-driven sortables, the clickable parts of inline SVG, and the seed renderers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observe } from '../../src/core/tool/observe.js';
import { ElementIds } from '../../src/core/tool/element-ids.js';
import { harness, type Harness } from '../helpers.js';
import type { RefRecord } from '../../src/core/snapshot/list-elements.js';

let h: Harness;

beforeAll(async () => {
  h = await harness();
});

afterAll(async () => {
  await h?.close();
});

type Rec = RefRecord;

/** The full outline of a page: its text lines and its ref records. */
async function outline(pageId: string, scope = 'full'): Promise<{ lines: string[]; refs: Rec[] }> {
  const d = await h.ok('browser_list_elements', { page_id: pageId, scope, max_chars: 200_000 });
  const body = d.__content.split('<page-content>\n')[1]!.split('\n</page-content>')[0]!;
  return { lines: body.split('\n').map((l: string) => l.trim()), refs: d.snapshot.refs };
}

const byId = (refs: Rec[], id: string): Rec => {
  const r = refs.find((x) => x.attributes.id === id);
  if (!r) throw new Error(`no ref for #${id}`);
  return r;
};
const lineOf = (lines: string[], ref: string): string => {
  const l = lines.find((x) => x.includes(` ref=${ref} `) || x.includes(` ref=${ref}]`));
  if (!l) throw new Error(`no line for ${ref}`);
  return l;
};

const PARA =
  'The parcel was left at the door in the rain.  The box is soaked and two of the plates are broken.';
const BODY = `Hello,\n\n${PARA}\n${PARA}\n${PARA}\n\nPlease send a replacement.\n   -- Ada`;

describe('text fields', () => {
  it('tells a one-line input from a textarea and a contenteditable block, in the line and the record', async () => {
    const id = await h.open('outline/fields.html');
    const { lines, refs } = await outline(id);
    const subject = byId(refs, 'subject');
    const body = byId(refs, 'body');
    // similar labels, same role: only `multiline` tells them apart
    expect(subject).toMatchObject({ role: 'textbox', accessible_name: 'Message subject' });
    expect(body).toMatchObject({ role: 'textbox', accessible_name: 'Message body' });
    expect(subject.states).not.toContain('multiline');
    expect(body.states).toContain('multiline');
    expect(lineOf(lines, subject.ref)).not.toContain('multiline');
    expect(lineOf(lines, body.ref)).toMatch(new RegExp(`^\\[textbox ref=${body.ref} multiline value=`));
    // contenteditable: a block root is multiline unless aria-multiline="false"; an inline one is not
    expect(byId(refs, 'notes').states).toContain('multiline');
    expect(byId(refs, 'one-line').states).not.toContain('multiline');
    expect(byId(refs, 'rich').states).toContain('multiline'); // aria-multiline="true"
    expect(byId(refs, 'tag').states).not.toContain('multiline');
    // the description (aria-describedby) is in the record; the line shows it only for unnamed nodes
    expect(subject.description).toBe('Keep it short');
    expect(lineOf(lines, subject.ref)).not.toContain('Keep it short');
  });

  it('keeps values whole and verbatim in the record and cuts them in the line, saying so', async () => {
    const id = await h.open('outline/fields.html');
    const { lines, refs } = await outline(id);
    const body = byId(refs, 'body');
    expect(BODY.length).toBeGreaterThan(200);
    expect(body.value).toBe(BODY); // no cap, newlines and double spaces kept
    expect(lineOf(lines, body.ref)).toContain(
      ` value=${JSON.stringify(`${BODY.slice(0, 79)}…`)} value_length=${BODY.length} `,
    );
    expect(byId(refs, 'subject').value).toBe('Order 1182 arrived damaged');
    expect(lineOf(lines, byId(refs, 'subject').ref)).not.toContain('value_length');
    // a contenteditable root's value is its innerText, whole
    const notes = byId(refs, 'notes').value!;
    expect(notes.startsWith('Customer called twice.\nPrefers email.\n')).toBe(true);
    expect(notes.endsWith('\nEND')).toBe(true);
    expect(notes).toContain('x'.repeat(300));
  });

  it('returns the whole value after a fill, in browser_find, and shows a change past the cut', async () => {
    const id = await h.open('outline/fields.html');
    const body = byId((await outline(id)).refs, 'body');
    const long = `${'Line one of a long reply.\n'.repeat(12)}Tail marker 7731`;
    const filled = await h.ok('browser_fill', { page_id: id, ref: body.ref, value: long });
    expect(filled.action.target.value).toBe(long);
    // the answer's text shows the start of a long value and its length, like a line does
    const refilled = await h.call('browser_fill', { page_id: id, ref: body.ref, value: `${long}.` });
    const targetLine = String(refilled.content)
      .split('\n')
      .find((l) => l.startsWith('Target now:'));
    expect(targetLine).toMatch(/^Target now: value="Line one of a long reply\.\\n.*…" value_length=329$/);
    await h.ok('browser_fill', { page_id: id, ref: body.ref, value: long });

    const found = await h.ok('browser_find', { page_id: id, text: 'tail marker 7731' });
    expect(found.matches.map((m: { ref: string }) => m.ref)).toContain(body.ref);
    const match = found.matches.find((m: { ref: string }) => m.ref === body.ref);
    expect(match.value).toBe(long);
    expect(match.states).toContain('multiline');

    // change one character far past what the line shows: still a change
    await h.ok('browser_list_elements', { page_id: id, scope: 'full', max_chars: 200_000 });
    await h.ok('browser_evaluate', {
      page_id: id,
      // as an edit does: the value changes and an input event follows
      expression: `(() => { const b = document.getElementById('body'); b.value = b.value.replace('7731', '7732');
        b.dispatchEvent(new Event('input', { bubbles: true })); })()`,
    });
    const changes = await h.ok('browser_list_elements', {
      page_id: id,
      scope: 'changes',
      max_chars: 200_000,
    });
    const changed: string[] = changes.snapshot.diff.changed;
    expect(changed.length).toBe(1);
    expect(changed[0]).toContain(`ref=${body.ref}`);
    expect(changed[0]).toContain('7732');
  });
});

describe('role-less widgets and ranges', () => {
  it('marks a thumb focusable and a track clickable, and keys reach the thumb by ref', async () => {
    const id = await h.open('outline/slider.html');
    const { lines, refs } = await outline(id);
    const thumb = byId(refs, 'thumb');
    const track = byId(refs, 'track');
    expect(thumb).toMatchObject({ role: 'generic', states: ['focusable'] });
    expect(thumb.allowed_actions).toEqual(expect.arrayContaining(['press', 'drag']));
    expect(track.states).toEqual(['clickable']);
    expect(track.allowed_actions).not.toContain('press');
    expect(lineOf(lines, thumb.ref)).toContain(' focusable ');
    expect(lineOf(lines, track.ref)).toContain(' clickable ');
    // cards with a click listener or onclick, a pointer chip: clickable; a focusable pane: focusable
    expect(byId(refs, 'card-a').states).toEqual(['clickable']);
    expect(byId(refs, 'card-b').states).toEqual(['clickable']);
    expect(byId(refs, 'chip').states).toEqual(['clickable']);
    expect(byId(refs, 'pane').states).toEqual(['focusable']);
    expect(byId(refs, 'pane').allowed_actions).toContain('press');
    // a widget with its own role is not "focusable" (focus is expected there)
    expect(byId(refs, 'aria-slider').states).not.toContain('focusable');

    const pressed = await h.ok('browser_press', { page_id: id, ref: thumb.ref, key: 'ArrowRight' });
    expect(pressed.action.outcome).toBe('completed');
    const after = await outline(id);
    expect(after.lines.some((l) => /^\[status ref=e\d+\] 130$/.test(l))).toBe(true);
  });

  it('gives sliders, spinbuttons and progress bars their value and known bounds', async () => {
    const id = await h.open('outline/slider.html');
    const { lines, refs } = await outline(id);
    const expectRange = (dom: string, value: string, min?: number, max?: number) => {
      const r = byId(refs, dom);
      expect(r.value).toBe(value);
      expect(r.value_min).toBe(min);
      expect(r.value_max).toBe(max);
      const bounds = `${min !== undefined ? ` min=${min}` : ''}${max !== undefined ? ` max=${max}` : ''}`;
      expect(lineOf(lines, r.ref)).toContain(` value=${JSON.stringify(value)}${bounds} `);
    };
    expectRange('aria-slider', '3 stars', 1, 5); // aria-valuetext before aria-valuenow
    expectRange('volume', '40'); // no aria-valuemin/max: no bounds assumed
    expectRange('qty', '3', 1, 9);
    expectRange('zoom', '20', 10, 50);
    expectRange('opacity', '70', 0, 100); // a range input's own defaults
    expectRange('spin', '2', 0, 12);
    const upload = byId(refs, 'upload');
    expect(upload).toMatchObject({ role: 'progressbar', value: '50', value_min: 0, value_max: 200 });
    // sliders are dragged
    for (const dom of ['aria-slider', 'volume', 'zoom'])
      expect(byId(refs, dom).allowed_actions).toContain('drag');
  });
});

describe('drag', () => {
  it('offers drag on items of mouse-driven sortables, moved boxes and draggables, not on plain lists', async () => {
    const id = await h.open('outline/sortable.html');
    const { lines, refs } = await outline(id, 'interactive');
    const named = (name: string) => {
      const r = refs.find((x) => x.accessible_name === name || x.text === name);
      if (!r) throw new Error(`no ref named ${name}: ${lines.join('\n')}`);
      return r;
    };
    // jQuery UI sortable: a mousedown listener on the <ul>; its <li> are in the interactive scope
    for (const name of ['Write the release notes', 'Fix the login bug', 'Review the API change']) {
      expect(named(name)).toMatchObject({ role: 'listitem' });
      expect(named(name).allowed_actions).toContain('drag');
    }
    // a button in an item is not dragged (sortables cancel drags that start on buttons)
    expect(named('Remove')).toMatchObject({ role: 'button' });
    expect(named('Remove').allowed_actions).not.toContain('drag');
    // SortableJS: pointerdown/touchstart on the container; its plain <div> items get lines and drag
    for (const name of ['Card one', 'Card two']) expect(named(name).allowed_actions).toContain('drag');
    expect(named('Drag me').allowed_actions).toContain('drag'); // cursor: move
    expect(named('report.pdf').allowed_actions).toContain('drag'); // draggable="true"
    // a plain list of links gains nothing; a delegation root's rows are not drag items
    for (const name of ['Alpha', 'Beta', 'Gamma']) expect(named(name).allowed_actions).not.toContain('drag');
    expect(refs.some((r) => r.accessible_name === 'Row one' || r.text === 'Row one')).toBe(false);
    const full = await outline(id);
    const links = full.refs.filter((r) => r.role === 'listitem' && !r.allowed_actions.includes('drag'));
    expect(links).toHaveLength(3);
  });
});

describe('inline SVG', () => {
  it('lists clickable shapes with refs, names and fill colours, and clicks them', async () => {
    const id = await h.open('outline/chart.html');
    const { lines, refs } = await outline(id);
    // the four bars: the first clickable role-less nodes (the chart's own line comes before them)
    const bars = refs.filter((r) => r.role === 'generic' && r.states.includes('clickable')).slice(0, 4);
    expect(bars.map((b) => b.accessible_name)).toEqual(['Q1: 120', 'Q2: 180', '', '']);
    expect(bars.map((b) => b.description)).toEqual([undefined, undefined, 'fill #e15759', 'fill #76b7b2']);
    for (const b of bars) {
      expect(b.allowed_actions).toEqual(expect.arrayContaining(['click', 'hover']));
      expect(b.states).toContain('clickable');
    }
    expect(lineOf(lines, bars[2]!.ref)).toMatch(/\] — fill #e15759$/);
    expect(lineOf(lines, bars[0]!.ref)).toMatch(/\] Q1: 120$/);
    expect(refs.find((r) => r.role === 'link' && r.accessible_name === 'Details')).toBeTruthy();
    // legend groups named by their <text>
    expect(refs.filter((r) => r.accessible_name === 'Revenue' || r.accessible_name === 'Costs')).toHaveLength(
      2,
    );
    // decorative drawings stay one line: the logo's circle and the button icon's path get no refs
    expect(refs.filter((r) => r.attributes.id === 'logo')).toHaveLength(1);
    expect(lines.filter((l) => /^\[(img|image) ref=e\d+\] Company logo$/.test(l))).toHaveLength(1);
    const logoAt = lines.findIndex((l) => l.includes('Company logo'));
    expect(lines[logoAt + 1]).toMatch(/^\[button ref=e\d+ /);

    const clicked = await h.ok('browser_click', { page_id: id, ref: bars[2]!.ref });
    expect(clicked.action.outcome).toBe('completed');
    const after = await outline(id);
    expect(after.lines).toContain(
      `[paragraph ref=${refs.find((r) => r.role === 'paragraph')!.ref}] Picked Q3`,
    );
  });
});

describe('seed renderers', () => {
  it('seed 002 outline lines carry bounds, the new states and a description for unnamed nodes', async () => {
    const chart = await h.open('outline/chart.html');
    const o = await h.ok('browser_list_elements', { page_id: chart, format: 'outline', scope: 'full' });
    const tree: string = o.__content;
    expect(tree).toMatch(/- generic \[clickable\] \[description="fill #e15759"\] \[ref=e\d+\]/);
    expect(tree).toMatch(/- generic "Q1: 120" \[clickable\] \[ref=e\d+\]/);

    const slider = await h.open('outline/slider.html');
    const s: string = (
      await h.ok('browser_list_elements', { page_id: slider, format: 'outline', scope: 'full' })
    ).__content;
    expect(s).toMatch(/- slider "Rating" = "3 stars" \[valuemin=1\] \[valuemax=5\] \[ref=e\d+\]/);
    expect(s).toMatch(/- generic \[focusable\] \[ref=e\d+\]/);
  });

  it('seed 000 observe entries carry multiline once, description and bounds', async () => {
    const fields = await h.open('outline/fields.html');
    const page = h.rt.core.findPage(fields)!;
    const obs = await observe(page.raw, new ElementIds(), {});
    const body = obs.elements.find((e) => e.name === 'Message body')!;
    expect(body.states.filter((s) => s === 'multiline')).toHaveLength(1);
    expect(body.value).toBe(BODY);
    const subject = obs.elements.find((e) => e.name === 'Message subject')!;
    expect(subject.states).not.toContain('multiline');
    expect(subject.description).toBe('Keep it short');

    const slider = await h.open('outline/slider.html');
    const sobs = await observe(h.rt.core.findPage(slider)!.raw, new ElementIds(), {});
    expect(sobs.elements.find((e) => e.name === 'Rating')).toMatchObject({
      role: 'slider',
      value: '3 stars',
      valuemin: 1,
      valuemax: 5,
    });
  });
});

describe('scrolling panes and words in boxes of their own', () => {
  it('keeps a pane that only scrolls in the interactive scope, around the controls inside it', async () => {
    const id = await h.open('agent/inbox.html');
    const d = await h.ok('browser_list_elements', { page_id: id });
    const body: string[] = d.__content
      .split('<page-content>\n')[1]!
      .split('\n</page-content>')[0]!
      .split('\n');
    const pane = body.findIndex((l) => /^\[generic ref=e\d+ actions=scroll\]/.test(l));
    expect(pane, body.join('\n')).toBeGreaterThanOrEqual(0);
    // the rows and their Archive buttons are indented under it
    expect(body[pane + 1]).toMatch(
      /^ {2}\[generic ref=e\d+ clickable actions=click,hover,scroll\] Bob Invoice #1001$/,
    );
    expect(body[pane + 2]).toMatch(/^ {4}\[button ref=e\d+ actions=click,hover,scroll\] Archive$/);
    const rec = d.snapshot.refs.find((r: Rec) => r.ref === /ref=(e\d+)/.exec(body[pane]!)![1]);
    expect(rec.allowed_actions).toEqual(['scroll']);
  });

  it('spaces the words of inline tags laid out as boxes (flex items, inline-block) in the text', async () => {
    const id = await h.open('agent/inbox.html');
    const { lines } = await outline(id, 'full');
    expect(lines).toContain('Bob Invoice #1001');
    expect(lines.join('\n')).not.toContain('BobInvoice');
  });
});
