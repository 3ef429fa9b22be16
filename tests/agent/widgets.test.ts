/**
 * Issue 32, part 2: real widgets and real apps. Our own fixture pages behave like TodoMVC (handlers
 * delegated to the app root, a delete button shown only on hover, editing on double click) and like
 * the ARIA Authoring Practices examples (SVG sliders, spin buttons, a date-picker dialog, a menu
 * button in a toolbar, a listbox with aria-activedescendant, a tree, a treegrid, tabs, a switch, a
 * carousel). The agent sees only brow's text and acts by ref; each page keeps its own record in
 * window.__result, read by the test through browser_evaluate (a channel the agent never uses).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers.js';
import { Agent, type Line } from './agent.js';

let h: Harness;

beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

/** Pages opened by the current test, closed after it. */
const opened: string[] = [];
afterEach(async () => {
  for (const page_id of opened.splice(0)) await h.call('browser_close_page', { page_id });
});

async function start(page: string): Promise<Agent> {
  const pageId = await h.open(`agent/${page}`);
  opened.push(pageId);
  return new Agent(h.call, pageId);
}

/** The fixture's own record (the test's channel, not the agent's). */
async function result(agent: Agent): Promise<any> {
  return (await h.ok('browser_evaluate', { page_id: agent.pageId, expression: 'window.__result' })).value;
}

/** The first number in a line's value (`$35`, `Zoom 3×`, `2 of 5 stars`). */
function numberIn(l: Line | undefined): number | undefined {
  const m = l?.value !== undefined ? /-?\d+(?:\.\d+)?/.exec(l.value) : null;
  return m ? Number(m[0]) : undefined;
}

/**
 * Move a slider or spin button to `target` with keys, reading its value from the listing after each
 * press; `read` turns the line into a number (the first number of value= by default).
 */
async function keyTo(
  agent: Agent,
  role: string,
  name: string | RegExp,
  target: number,
  keys: { up: string; down: string },
  read: (l: Line) => number | undefined = numberIn,
): Promise<string[]> {
  const answers: string[] = [];
  for (let step = 0; step < 40; step++) {
    await agent.look('full');
    const line = agent.find({ role, name });
    if (!line?.ref) return agent.giveUp(`no ${role} "${String(name)}" with a ref`);
    const v = read(line);
    if (v === undefined)
      return agent.giveUp(`the ${role} "${line.name}" shows no value: "${line.raw.trim()}"`);
    if (v === target) return answers;
    answers.push(await agent.press(line.ref, v < target ? keys.up : keys.down));
  }
  return agent.giveUp(`the ${role} "${String(name)}" never reached ${target}`);
}

/** Where a widget's keys act: the focused line, or the active descendant of a focused widget. */
const isActive = (l: Line) => l.states.includes('active') || l.states.includes('focused');

describe('issue 32: TodoMVC (handlers delegated to the app root)', () => {
  /** Type each title into "What needs to be done?" and press Enter. */
  async function addTodos(agent: Agent, titles: string[]): Promise<void> {
    for (const title of titles) {
      const box = await agent.locate(
        { role: 'textbox', name: 'What needs to be done?' },
        'the new-todo field',
      );
      await agent.act('browser_fill', { ref: box.ref, value: title }, { expectChange: true });
      await agent.press(box.ref, 'Enter');
    }
  }

  /** The line that carries a todo's title, and the row (list item) that holds it. */
  async function todo(agent: Agent, title: string): Promise<{ label: Line; row: Line }> {
    await agent.look('full');
    // the title is often bare text (no ref): its row is what the agent acts on
    const label = agent.find({ name: title });
    if (!label) return agent.giveUp(`no todo "${title}" in the listing`);
    const row = label.role === 'listitem' ? label : (agent.enclosing(label, { role: 'listitem' }) ?? label);
    if (!row.ref) return agent.giveUp(`the todo "${title}" has no ref on its row`);
    return { label, row };
  }

  it('add two todos', async () => {
    const agent = await start('todomvc.html');
    await addTodos(agent, ['Buy milk', 'Water the plants']);
    expect((await result(agent)).todos).toEqual([
      { title: 'Buy milk', completed: false },
      { title: 'Water the plants', completed: false },
    ]);
  });

  it('edit a todo: double click its label, change the text, Enter', async () => {
    const agent = await start('todomvc.html');
    await addTodos(agent, ['Buy milk', 'Water the plants']);
    const { label, row } = await todo(agent, 'Buy milk');
    // a model clicks what it sees, even when actions= does not list click
    const target = label.ref ? label : row;
    await agent.act('browser_click', { ref: target.ref, click_count: 2 }, { expectChange: true });
    await agent.look('interactive');
    const edit =
      agent.find({ role: 'textbox', state: 'focused' }) ??
      agent.lines.find((l) => l.role === 'textbox' && l.value === 'Buy milk');
    if (!edit?.ref) return agent.giveUp('no edit field appeared after the double click');
    await agent.act('browser_fill', { ref: edit.ref, value: 'Buy oat milk' }, { expectChange: true });
    await agent.press(edit.ref, 'Enter');
    const r = await result(agent);
    expect(r.todos.map((t: { title: string }) => t.title)).toEqual(['Buy oat milk', 'Water the plants']);
    expect(r.edited).toBe(1);
  });

  it('delete a todo: hover its row, then click the revealed delete button', async () => {
    const agent = await start('todomvc.html');
    await addTodos(agent, ['Buy milk', 'Water the plants']);
    const { row } = await todo(agent, 'Water the plants');
    const hovered = await agent.act('browser_hover', { ref: row.ref });
    // the answer names what appeared; else a fresh listing shows it inside the row
    const added = /Added: \[button ref=(e\d+)[^\]]*\]/.exec(hovered)?.[1];
    await agent.look('interactive');
    const rowNow = agent.byRef(row.ref) ?? row;
    const button =
      agent.byRef(added) ?? agent.inside(rowNow).find((l) => l.role === 'button' && l.ref !== undefined);
    if (!button?.ref) return agent.giveUp('hovering the row showed no button inside it');
    expect.soft(added, 'the hover answer names the revealed button').toBe(button.ref);
    await agent.click(button);
    const r = await result(agent);
    expect(r.todos).toEqual([{ title: 'Buy milk', completed: false }]);
    expect(r.removed).toBe(1);
  });

  it('complete a todo with its checkbox', async () => {
    const agent = await start('todomvc.html');
    await addTodos(agent, ['Buy milk', 'Water the plants']);
    const { row } = await todo(agent, 'Water the plants');
    const box = agent.inside(row).find((l) => l.role === 'checkbox');
    if (!box?.ref) return agent.giveUp('no checkbox in the row of "Water the plants"');
    await agent.act('browser_check', { ref: box.ref, checked: true }, { expectChange: true });
    expect((await result(agent)).todos).toEqual([
      { title: 'Buy milk', completed: false },
      { title: 'Water the plants', completed: true },
    ]);
  });

  it('filter "Completed" shows only the completed todo', async () => {
    const agent = await start('todomvc.html');
    await addTodos(agent, ['Buy milk', 'Water the plants']);
    const { row } = await todo(agent, 'Buy milk');
    const box = agent.inside(row).find((l) => l.role === 'checkbox');
    if (!box?.ref) return agent.giveUp('no checkbox in the row of "Buy milk"');
    await agent.act('browser_check', { ref: box.ref, checked: true }, { expectChange: true });
    await agent.click(await agent.locate({ role: 'link', name: 'Completed' }, 'the Completed filter'));
    const r = await result(agent);
    expect(r.filter).toBe('completed');
    expect(r.shown).toEqual(['Buy milk']);
    // the agent reads the same: "Water the plants" is gone from the listing
    await agent.look('full');
    expect(agent.find({ name: 'Water the plants' })).toBeUndefined();
    expect(agent.find({ name: 'Buy milk' })).toBeDefined();
  });
});

describe('issue 32: sliders drawn in SVG', () => {
  const arrows = { up: 'ArrowRight', down: 'ArrowLeft' };

  it('price range: set it to 20–80 with the arrow keys on each thumb', async () => {
    const agent = await start('svg-sliders.html');
    const lo = await keyTo(agent, 'slider', 'Minimum price', 20, arrows);
    const hi = await keyTo(agent, 'slider', 'Maximum price', 80, arrows);
    // each press answers with the thumb's new value
    expect.soft(lo.at(-1)).toMatch(/\$20\b/);
    expect.soft(hi.at(-1)).toMatch(/\$80\b/);
    const r = await result(agent);
    expect([r.lo, r.hi]).toEqual([20, 80]);
    // the thumbs' lines show value and range
    await agent.look('full');
    const line = agent.find({ role: 'slider', name: 'Maximum price' });
    expect.soft(line?.min, line?.raw).toBe(20);
    expect.soft(line?.max, line?.raw).toBe(100);
  });

  it('map zoom: End zooms all the way in', async () => {
    const agent = await start('svg-sliders.html');
    const zoom = await agent.locate({ role: 'slider', name: 'Map zoom' }, 'the zoom slider');
    const answer = await agent.press(zoom.ref, 'End');
    expect.soft(answer).toContain('Zoom 10×');
    expect((await result(agent)).zoom).toBe(10);
  });

  it('rating: set the guest rating to 4 stars', async () => {
    const agent = await start('svg-sliders.html');
    await keyTo(agent, 'slider', 'Guest rating', 4, arrows);
    expect((await result(agent)).rating).toBe(4);
  });
});

describe('issue 32: date pickers', () => {
  const MONTHS = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ];
  const updown = { up: 'ArrowUp', down: 'ArrowDown' };

  it('three spin buttons: set the arrival to 14 March 2027', async () => {
    const agent = await start('date-pickers.html');
    await keyTo(agent, 'spinbutton', 'Day', 14, updown);
    // the month reads as its name: count it as its place in the year
    await keyTo(agent, 'spinbutton', 'Month', 3, updown, (l) => {
      const i = MONTHS.indexOf(l.value ?? '');
      return i >= 0 ? i + 1 : numberIn(l);
    });
    await keyTo(agent, 'spinbutton', 'Year', 2027, updown);
    expect((await result(agent)).arrival).toBe('2027-03-14');
  });

  it('date-picker dialog: pick March 14, 2026, starting from January', async () => {
    const agent = await start('date-pickers.html');
    await agent.click(await agent.locate({ role: 'button', name: 'Choose date' }, 'the calendar button'));
    for (let i = 0; i < 12; i++) {
      await agent.look('interactive');
      const dialog = agent.find({ role: 'dialog' });
      if (!dialog) return agent.giveUp('no dialog after "Choose date"');
      if (agent.find({ name: 'March 2026', after: dialog })) break;
      // the month buttons inside the dialog (the spin buttons above have the same names)
      const next = agent.inside(dialog).find((l) => l.role === 'button' && /^next month$/i.test(l.name));
      if (!next?.ref) return agent.giveUp('no "Next month" button in the dialog');
      await agent.click(next);
    }
    const dialog = agent.find({ role: 'dialog' });
    if (!dialog || !agent.find({ name: 'March 2026', after: dialog }))
      return agent.giveUp('the dialog never showed March 2026');
    const day = agent.find({ name: /^\w+, March 14, 2026$/, after: dialog });
    if (!day?.ref) return agent.giveUp('no March 14, 2026 in the dialog');
    await agent.click(day);
    expect((await result(agent)).departure).toBe('2026-03-14');
    await agent.look('interactive');
    const field = agent.find({ role: 'textbox', name: 'Departure date' });
    expect(field?.value).toBe('03/14/2026');
  });
});

describe('issue 32: menu button in a formatting toolbar', () => {
  it('set the font to Courier with the mouse', async () => {
    const agent = await start('toolbar-menu.html');
    const button = await agent.locate({ role: 'button', name: /^Font family/ }, 'the font button');
    await agent.click(button);
    const courier = await agent.locate({ role: ['menuitemradio', 'menuitem'], name: 'Courier' }, 'Courier');
    await agent.click(courier);
    expect((await result(agent)).font).toBe('Courier');
  });

  it('set the font to Courier with the keyboard (the menu marks its active item)', async () => {
    const agent = await start('toolbar-menu.html');
    const button = await agent.locate({ role: 'button', name: /^Font family/ }, 'the font button');
    await agent.press(button.ref, 'ArrowDown');
    for (let i = 0; i < 8; i++) {
      await agent.look('interactive');
      const menu = agent.find({ role: 'menu' });
      if (!menu?.ref) return agent.giveUp('no menu after ArrowDown on the font button');
      const current = agent.inside(menu).find(isActive);
      if (!current) return agent.giveUp('the menu shows no active (focused) item');
      if (current.name === 'Courier') {
        await agent.press(menu.ref, 'Enter');
        break;
      }
      await agent.press(menu.ref, 'ArrowDown');
    }
    expect((await result(agent)).font).toBe('Courier');
  });
});

describe('issue 32: composite widgets of the ARIA practices', () => {
  it('listbox with aria-activedescendant: choose "Flat white" with ArrowDown and Enter', async () => {
    const agent = await start('apg-widgets.html');
    const list = await agent.locate({ role: 'listbox', name: 'Drink' }, 'the drink list');
    await agent.press(list.ref, 'ArrowDown');
    for (let i = 0; i < 10; i++) {
      await agent.look('interactive');
      const box = agent.byRef(list.ref);
      if (!box) return agent.giveUp('the drink list left the listing');
      const active = agent.inside(box).find(isActive);
      if (!active) return agent.giveUp('the list shows no active (focused) option');
      if (active.name === 'Flat white') break;
      await agent.press(list.ref, 'ArrowDown');
    }
    await agent.press(list.ref, 'Enter');
    expect((await result(agent)).drink).toBe('Flat white');
    await agent.look('interactive');
    // a chosen option draws a tick before its name (CSS content, part of the name)
    expect(agent.find({ role: 'option', name: /Flat white$/ })?.states).toContain('selected');
    // with the focus elsewhere no option is active (the list's keys no longer act)
    await agent.click(await agent.locate({ role: 'tab', name: 'Weekend' }, 'the Weekend tab'));
    await agent.look('interactive');
    expect(agent.lines.filter((l) => l.states.includes('active')).map((l) => l.raw.trim())).toEqual([]);
  });

  it('tree: open the "Lunch" folder with ArrowRight, then open sandwiches.pdf', async () => {
    const agent = await start('apg-widgets.html');
    const folder = await agent.locate({ role: 'treeitem', name: /^Lunch\b/ }, 'the Lunch folder');
    expect.soft(folder.states).toContain('collapsed');
    const answer = await agent.press(folder.ref, 'ArrowRight');
    expect.soft(answer).toContain('sandwiches.pdf');
    const file = await agent.locate({ role: 'treeitem', name: 'sandwiches.pdf' }, 'the file');
    await agent.click(file);
    expect((await result(agent)).file).toBe('Lunch/sandwiches.pdf');
  });

  it('treegrid with delegated handlers: open order #18 and its Mocha line', async () => {
    const agent = await start('apg-widgets.html');
    const cell = await agent.locate({ name: 'Order #18' }, 'the order #18 cell');
    const row = agent.enclosing(cell, { role: 'row' }) ?? cell;
    await agent.act('browser_click', { ref: row.ref }, { expectChange: true });
    // the drink list above has a "Mocha" too: the line is the one after the order's row
    await agent.look('interactive');
    const order = agent.byRef(row.ref);
    const mocha = order && agent.find({ name: 'Mocha', after: order });
    if (!mocha) return agent.giveUp('no "Mocha" line under order #18');
    const mochaRow = agent.enclosing(mocha, { role: 'row' }) ?? mocha;
    await agent.act('browser_click', { ref: mochaRow.ref }, { expectChange: true });
    expect((await result(agent)).order).toBe('Mocha | large | €4.20');
  });

  it('tabs delegated to the tablist: show the weekend hours', async () => {
    const agent = await start('apg-widgets.html');
    const tab = await agent.locate({ role: 'tab', name: 'Weekend' }, 'the Weekend tab');
    const answer = await agent.click(tab);
    expect.soft(answer).toContain('Open 9:00–16:00.');
    expect((await result(agent)).hours).toBe('Weekend');
  });

  it('switch: accept takeaway orders', async () => {
    const agent = await start('apg-widgets.html');
    const sw = await agent.locate({ role: 'switch', name: 'Accept takeaway orders' }, 'the switch');
    if (sw.actions.includes('check'))
      await agent.act('browser_check', { ref: sw.ref, checked: true }, { expectChange: true });
    else await agent.click(sw);
    expect((await result(agent)).takeaway).toBe(true);
    await agent.look('interactive');
    expect(agent.byRef(sw.ref)?.states).toContain('checked');
  });

  it('carousel: go to the iced matcha slide and order it', async () => {
    const agent = await start('apg-widgets.html');
    let link: Line | undefined;
    for (let i = 0; i < 6; i++) {
      await agent.look('interactive');
      link = agent.find({ role: 'link', name: 'Order the matcha' });
      if (link) break;
      const next = agent.find({ role: 'button', name: 'Next slide' });
      if (!next?.ref) return agent.giveUp('no "Next slide" button');
      await agent.click(next);
    }
    if (!link?.ref) return agent.giveUp('the matcha slide never showed');
    await agent.click(link);
    expect((await result(agent)).ordered).toBe('Order the matcha');
  });
});
