/**
 * A small scripted agent for issue 12: it sees only the text brow answers (the lines of
 * browser_list_elements and the text of action answers) and acts only by ref through browser_* tools.
 * Its rules are the ones a language model follows on an outline: find an element by role, name, text
 * and states; when the element it wants has no action, use the nearest line above it that has one;
 * when an action says the target is not reachable, bring it into view and try once more; trust the
 * outcome word of an answer (`no_change` means nothing happened). It never reads the DOM, never runs
 * script and knows no CSS selector; whether a task succeeded is checked by the test, not by the agent.
 */
import type { Outcome } from '../../src/runtime/outcome.js';

export type Call = (name: string, input: Record<string, unknown>) => Promise<Outcome>;

/** One line of a listing, parsed from its text. */
export interface Line {
  /** Position in the listing. */
  index: number;
  /** Indentation depth (two spaces a level). */
  depth: number;
  /** Role in the bracket, or 'text' for a bare text line. */
  role: string;
  ref?: string;
  level?: number;
  /** Bare words in the bracket (checked, expanded, focused, multiline, focusable, clickable, …). */
  states: string[];
  value?: string;
  /** `value_length=N` when the line cut the value. */
  valueLength?: number;
  min?: number;
  max?: number;
  actions: string[];
  /** Other key=value words of the bracket. */
  attrs: Record<string, string>;
  /** What follows the bracket. */
  label: string;
  /** The label's part before ` — `. */
  name: string;
  /** The label's part after ` — ` (text or description). */
  extra: string;
  raw: string;
}

/** A failure of the agent, carrying brow's last answer so a report can quote it. */
export class AgentGaveUp extends Error {
  constructor(
    reason: string,
    readonly lastAnswer: string,
    readonly transcript: string[],
  ) {
    super(
      `${reason}\n--- brow's last answer ---\n${lastAnswer}\n--- transcript (last 12 steps) ---\n${transcript.slice(-12).join('\n')}`,
    );
  }
}

/** Parse the bracket of a line: `role ref=eN word key=value key="json" actions=a,b`. */
function parseBracket(
  body: string,
): Pick<
  Line,
  'role' | 'ref' | 'level' | 'states' | 'value' | 'valueLength' | 'min' | 'max' | 'actions' | 'attrs'
> {
  const tokens: string[] = [];
  let i = 0;
  while (i < body.length) {
    if (body[i] === ' ') {
      i++;
      continue;
    }
    let j = i;
    while (j < body.length && body[j] !== ' ' && body[j] !== '=') j++;
    if (body[j] === '=' && body[j + 1] === '"') {
      // a JSON string value: read to its unescaped closing quote
      let k = j + 2;
      while (k < body.length && body[k] !== '"') k += body[k] === '\\' ? 2 : 1;
      tokens.push(body.slice(i, k + 1));
      i = k + 1;
    } else {
      while (j < body.length && body[j] !== ' ') j++;
      tokens.push(body.slice(i, j));
      i = j;
    }
  }
  const out: ReturnType<typeof parseBracket> = { role: tokens[0] ?? '', states: [], actions: [], attrs: {} };
  for (const t of tokens.slice(1)) {
    const eq = t.indexOf('=');
    if (eq < 0) {
      out.states.push(t);
      continue;
    }
    const key = t.slice(0, eq);
    let val = t.slice(eq + 1);
    if (val.startsWith('"')) {
      try {
        val = JSON.parse(val) as string;
      } catch {
        val = val.slice(1, -1);
      }
    }
    if (key === 'ref') out.ref = val;
    else if (key === 'level') out.level = Number(val);
    else if (key === 'value') out.value = val;
    else if (key === 'value_length') out.valueLength = Number(val);
    else if (key === 'min') out.min = Number(val);
    else if (key === 'max') out.max = Number(val);
    else if (key === 'actions') out.actions = val.split(',').filter(Boolean);
    else out.attrs[key] = val;
  }
  return out;
}

/** Parse the lines between <page-content> and </page-content> of a listing. */
export function parseListing(text: string): Line[] {
  const start = text.indexOf('<page-content>');
  const end = text.lastIndexOf('</page-content>');
  const body = start >= 0 ? text.slice(start + '<page-content>'.length, end >= 0 ? end : undefined) : text;
  const lines: Line[] = [];
  for (const raw of body.split('\n')) {
    if (!raw.trim()) continue;
    const depth = Math.floor((raw.length - raw.trimStart().length) / 2);
    const t = raw.trim();
    let head: ReturnType<typeof parseBracket> = { role: 'text', states: [], actions: [], attrs: {} };
    let label = t;
    if (t.startsWith('[')) {
      // the bracket ends at the first `]` outside a quoted value
      let k = 1;
      let quoted = false;
      for (; k < t.length; k++) {
        const c = t[k];
        if (quoted) {
          if (c === '\\') k++;
          else if (c === '"') quoted = false;
        } else if (c === '"') quoted = true;
        else if (c === ']') break;
      }
      head = parseBracket(t.slice(1, k));
      label = t.slice(k + 1).trim();
    }
    // `name — text`, or `— description` for a node without a name
    const bare = label.startsWith('— ');
    const dash = bare ? -1 : label.indexOf(' — ');
    lines.push({
      index: lines.length,
      depth,
      ...head,
      label,
      name: bare ? '' : dash >= 0 ? label.slice(0, dash) : label,
      extra: bare ? label.slice(2) : dash >= 0 ? label.slice(dash + 3) : '',
      raw,
    });
  }
  return lines;
}

/** What the agent looks for. Strings match exactly (trimmed, case-insensitive); RegExps search. */
export interface Query {
  role?: string | string[];
  /** Matches the name, the whole label, or the text after ` — `. */
  name?: string | RegExp;
  state?: string;
  action?: string;
  /** Only lines after this one (document order), and, with `within`, inside the same parent. */
  after?: Line;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

function textMatches(l: Line, m: string | RegExp): boolean {
  const fields = [l.name, l.label, l.extra];
  return typeof m === 'string' ? fields.some((f) => norm(f) === norm(m)) : fields.some((f) => m.test(f));
}

export function matches(l: Line, q: Query): boolean {
  if (q.role !== undefined && !(Array.isArray(q.role) ? q.role : [q.role]).includes(l.role)) return false;
  if (q.name !== undefined && !textMatches(l, q.name)) return false;
  if (q.state !== undefined && !l.states.includes(q.state)) return false;
  if (q.action !== undefined && !l.actions.includes(q.action)) return false;
  if (q.after !== undefined && l.index <= q.after.index) return false;
  return true;
}

/** The outcome word of an action answer: `… → completed (…)`. */
export function outcomeOf(answer: string): string | undefined {
  return /→ (completed|dispatched|no_change|failed)\b/.exec(answer)?.[1];
}

export interface ActOptions {
  /** The action should change the page: `no_change` makes the agent give up. */
  expectChange?: boolean;
  /** Text the agent waits for (browser_wait) when the answer says the page is still busy. */
  waitForText?: string;
}

export class Agent {
  readonly transcript: string[] = [];
  lastAnswer = '';
  /** The text of the last answer that was not a listing. */
  lastAction = '';
  lines: Line[] = [];
  /** The scope of the last listing. */
  scope = '';
  /** The data records of the last listing (only for reading a field's value back, as the brief asks). */
  records: Record<string, unknown>[] = [];

  constructor(
    private readonly call: Call,
    readonly pageId: string,
  ) {}

  giveUp(reason: string): never {
    const last =
      this.lastAction && this.lastAction !== this.lastAnswer
        ? `${this.lastAnswer}\n--- brow's last action answer ---\n${this.lastAction}`
        : this.lastAnswer;
    throw new AgentGaveUp(reason, last, this.transcript);
  }

  private async tool(name: string, input: Record<string, unknown>): Promise<Outcome> {
    const o = await this.call(name, { page_id: this.pageId, ...input });
    this.lastAnswer = o.content;
    if (name !== 'browser_list_elements') this.lastAction = o.content;
    const args = JSON.stringify(input);
    this.transcript.push(`> ${name} ${args.length > 160 ? `${args.slice(0, 159)}…` : args}`);
    if (name !== 'browser_list_elements') this.transcript.push(o.content.split('\n').slice(0, 6).join('\n'));
    return o;
  }

  /** Read the page: the default listing, or another scope. */
  async look(scope: 'interactive' | 'full' | 'viewport' = 'interactive'): Promise<Line[]> {
    const o = await this.tool('browser_list_elements', { scope, max_chars: 200_000 });
    if (!o.ok) this.giveUp(`browser_list_elements failed`);
    this.lines = parseListing(o.content);
    this.scope = scope;
    const snap = (o.data as { snapshot?: { refs?: Record<string, unknown>[] } }).snapshot;
    this.records = snap?.refs ?? [];
    this.transcript.push(`  (${scope}: ${this.lines.length} lines)`);
    return this.lines;
  }

  /** The first line matching, in the last listing. */
  find(q: Query): Line | undefined {
    return this.lines.find((l) => matches(l, q));
  }

  /** Look in the default listing first and in the full one when it is not there. */
  async locate(q: Query, what: string): Promise<Line> {
    const hit = (await this.look('interactive')).find((l) => matches(l, q) && l.ref);
    if (hit) return hit;
    const full = (await this.look('full')).find((l) => matches(l, q) && l.ref);
    if (full) return full;
    const bare = this.lines.find((l) => matches(l, q));
    return this.giveUp(
      bare
        ? `${what}: the listing shows "${bare.raw.trim()}" but it has no ref to act on`
        : `${what}: nothing in the listing matches ${describe(q)}`,
    );
  }

  /** The line itself when it offers `action`, else the nearest enclosing line that does. */
  actionable(l: Line, action: string): Line {
    if (l.actions.includes(action) && l.ref) return l;
    let depth = l.depth;
    for (let i = l.index - 1; i >= 0; i--) {
      const p = this.lines[i]!;
      if (p.depth < depth) {
        if (p.actions.includes(action) && p.ref) return p;
        depth = p.depth;
      }
    }
    return l;
  }

  /** Try an action once and read its answer, without giving up when it fails. */
  async attempt(name: string, input: Record<string, unknown>): Promise<{ ok: boolean; text: string }> {
    const o = await this.tool(name, input);
    return { ok: o.ok, text: o.content };
  }

  /** Run an action by ref, with the recoveries a model would try. Returns the answer text. */
  async act(name: string, input: Record<string, unknown>, opts: ActOptions = {}): Promise<string> {
    let o = await this.tool(name, input);
    if (!o.ok && /\[not_interactable\]/.test(o.content) && typeof input.ref === 'string') {
      // "covered" or "outside the viewport": bring it into view, then try once more
      const s = await this.tool('browser_scroll', { ref: input.ref });
      if (!s.ok) this.giveUp(`${name} ${String(input.ref)} was not interactable and scrolling it failed`);
      o = await this.tool(name, input);
    }
    if (!o.ok) this.giveUp(`${name} failed`);
    const outcome = outcomeOf(o.content);
    if (outcome === 'failed') this.giveUp(`${name} answered failed`);
    if (outcome === 'dispatched' && opts.waitForText) {
      const w = await this.tool('browser_wait', {
        condition: 'text',
        value: opts.waitForText,
        timeout_ms: 10_000,
      });
      if (!w.ok) this.giveUp(`waiting for "${opts.waitForText}" after ${name} failed`);
      this.lastAnswer = o.content;
    }
    if (outcome === 'no_change' && opts.expectChange) {
      this.giveUp(`${name} answered no_change, so the agent believes nothing happened`);
    }
    return o.content;
  }

  click(l: Line, opts: ActOptions = { expectChange: true }): Promise<string> {
    return this.act('browser_click', { ref: this.actionable(l, 'click').ref }, opts);
  }

  /** The lines nested under `parent` in the last listing (deeper, up to the next line at its depth or above). */
  inside(parent: Line): Line[] {
    const out: Line[] = [];
    for (let i = parent.index + 1; i < this.lines.length && this.lines[i]!.depth > parent.depth; i++)
      out.push(this.lines[i]!);
    return out;
  }

  /** The nearest line above `l` that holds it (less indented) and matches `q`. */
  enclosing(l: Line, q: Query = {}): Line | undefined {
    let depth = l.depth;
    for (let i = l.index - 1; i >= 0 && depth > 0; i--) {
      const p = this.lines[i]!;
      if (p.depth >= depth) continue;
      if (matches(p, q)) return p;
      depth = p.depth;
    }
    return undefined;
  }

  /** Press a key on a ref (the element is focused first). */
  press(ref: string | undefined, key: string, opts: ActOptions = { expectChange: true }): Promise<string> {
    return this.act('browser_press', { ref, key }, opts);
  }

  /** The line of `ref` in the last listing. */
  byRef(ref: string | undefined): Line | undefined {
    return ref ? this.lines.find((l) => l.ref === ref) : undefined;
  }

  /** The complete value of a field, from the data record of its ref in the last listing. */
  recordValue(ref: string): string | undefined {
    const r = this.records.find((x) => x.ref === ref);
    return r?.value as string | undefined;
  }
}

function describe(q: Query): string {
  const bits = [
    q.role ? `role ${Array.isArray(q.role) ? q.role.join('|') : q.role}` : '',
    q.name !== undefined ? `name ${String(q.name)}` : '',
    q.state ? `state ${q.state}` : '',
    q.action ? `action ${q.action}` : '',
    q.after ? `after "${q.after.raw.trim()}"` : '',
  ];
  return bits.filter(Boolean).join(', ');
}
