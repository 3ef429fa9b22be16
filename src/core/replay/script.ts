/**
 * A replay script: the action log as steps that name elements by locator, never by ref, with
 * browser_wait steps on the effects that were seen (a URL after a navigation, text that appeared).
 * Three forms: json (the data), brow-cli (one brow command a line, read back by `brow replay`) and
 * typescript (the library API, one browser_replay_script call a step).
 */
import { BrowserError } from '../errors.js';
import { describeLocator, type Locator } from './locator.js';
import type { LogEntry } from './log.js';

export interface ReplayStep {
  tool: string;
  /** The page (p1, p2…) the step acts on; absent: the session's active page. */
  page?: string;
  /** The page this step opens: browser_open_page's, or a popup the action opened. */
  opens?: string;
  /** The element of `ref` (of `value` for a wait on a ref). */
  target?: Locator;
  /** A drag's drop target (`to_ref`). */
  to_target?: Locator;
  /** The rest of the tool's input; browser_fill_form's fields are `{target, value}`. */
  input: Record<string, unknown>;
}

export interface ReplayScript {
  format: 'brow-replay';
  version: 1;
  exported_from?: string;
  exported_at?: string;
  /**
   * How long a step looks for its element (default 5000 ms) and a wait without its own timeout_ms
   * waits (default 30000 ms).
   */
  step_timeout_ms?: number;
  /** Placeholders a replay fills from its secrets or the environment. */
  secrets?: { name: string; target: string }[];
  steps: ReplayStep[];
}

export type ScriptFormat = 'json' | 'brow-cli' | 'typescript';

/** Roles whose appearing text is worth waiting for, best first. */
const TELLING_ROLES = ['status', 'alert', 'heading', 'dialog', 'alertdialog', 'text', 'paragraph', 'cell'];

/** The label of an outline line: `[role ref=e3 …] Label — text` or a plain text line. */
function lineLabel(line: string): { role: string; label: string } {
  const m = /^\[([a-z]+)[^\]]*\]\s?(.*)$/.exec(line.trim());
  const role = m ? m[1]! : 'text';
  const label = (m ? m[2]! : line.trim()).split(' — ')[0]!.replace(/…$/, '').trim();
  return { role, label };
}

/** A changed line's new label when it differs from its old one (`new (was: old)`), else null. */
function changedLabel(line: string): { role: string; label: string } | null {
  const at = line.lastIndexOf(' (was: ');
  if (at < 0) return null;
  const now = lineLabel(line.slice(0, at));
  const was = lineLabel(line.slice(at + 7).replace(/\)$/, ''));
  return now.label !== was.label ? now : null;
}

/** A text that appeared (a new line, or a line whose text changed) and says the step's effect happened. */
export function appearedText(added: string[] | undefined, changed?: string[]): string | null {
  const lines = [
    ...(added ?? []).map(lineLabel),
    ...(changed ?? []).map(changedLabel).filter((l) => l !== null),
  ].filter((l) => l.label.length >= 2 && !l.label.includes('••'));
  const rank = (r: string) => {
    const i = TELLING_ROLES.indexOf(r);
    return i < 0 ? TELLING_ROLES.length : i;
  };
  const best = lines.sort((a, b) => rank(a.role) - rank(b.role))[0];
  return best ? best.label.slice(0, 120) : null;
}

/** What to wait for in the URL after a navigation: its path and query (any port, any host), or all of it. */
export function urlPattern(to: string): string {
  try {
    const u = new URL(to);
    const tail = u.pathname + u.search;
    return tail.length > 1 ? tail : to;
  } catch {
    return to;
  }
}

/**
 * The log's successful calls as a script. `movesPages`: the tool opens, moves or closes pages by
 * itself, so no wait is derived from its effect (its capability's `replay.movesPages`, passed in
 * by the capability layer: the core does not read the registry).
 */
export function buildScript(
  entries: LogEntry[],
  movesPages: (tool: string) => boolean,
  sessionId?: string,
): ReplayScript {
  const aliases = new Map<string, string>();
  const alias = (id: string | null): string | undefined => {
    if (!id) return undefined;
    let a = aliases.get(id);
    if (!a) {
      a = `p${aliases.size + 1}`;
      aliases.set(id, a);
    }
    return a;
  };
  const steps: ReplayStep[] = [];
  const secrets = new Map<string, string>();
  for (const e of entries) {
    if (!e.ok) continue;
    for (const s of e.secrets ?? []) secrets.set(s.name, s.target);
    const input = { ...e.input };
    const step: ReplayStep = { tool: e.tool, input };
    if (e.tool === 'browser_open_page') {
      const a = alias(e.page_id);
      if (a) step.opens = a;
    } else {
      const a = alias(e.page_id);
      if (a) step.page = a;
    }
    const t = e.targets;
    if (t.ref) {
      step.target = t.ref.locator;
      delete input.ref;
    }
    if (t.value) {
      step.target = t.value.locator;
      delete input.value;
    }
    if (t.to_ref) {
      step.to_target = t.to_ref.locator;
      delete input.to_ref;
    }
    if (Array.isArray(input.fields)) {
      input.fields = (input.fields as { ref: string; value: unknown }[]).map((f, i) => {
        const ft = t[`fields.${i}.ref`];
        return ft ? { target: ft.locator, value: f.value } : f;
      });
    }
    const opened = e.effect?.opened_pages?.[0];
    if (opened && e.tool !== 'browser_open_page') step.opens = alias(opened.page_id);
    steps.push(step);
    if (movesPages(e.tool) || e.tool === 'browser_wait' || !e.effect) continue;
    // the effect seen becomes a wait, so the replay goes on only once the page got there too
    const nav = e.effect.navigation;
    if (nav && nav.to !== nav.from) {
      steps.push({
        tool: 'browser_wait',
        ...(step.page ? { page: step.page } : {}),
        input: { condition: 'url', value: urlPattern(nav.to) },
      });
    } else if (e.effect.outcome !== 'no_change') {
      const text = appearedText(e.effect.added, e.effect.changed);
      if (text) {
        steps.push({
          tool: 'browser_wait',
          ...(step.page ? { page: step.page } : {}),
          input: { condition: 'text', value: text },
        });
      }
    }
  }
  return {
    format: 'brow-replay',
    version: 1,
    ...(sessionId ? { exported_from: sessionId } : {}),
    exported_at: new Date().toISOString(),
    ...(secrets.size > 0 ? { secrets: [...secrets].map(([name, target]) => ({ name, target })) } : {}),
    steps,
  };
}

/** One line about a step, for comments and reports: `click button "Sign in"`. */
export function stepSummary(s: ReplayStep): string {
  const tool = s.tool.replace(/^browser_/, '');
  if (s.target) return `${tool} ${describeLocator(s.target)}`;
  if (s.tool === 'browser_open_page' || s.tool === 'browser_navigate')
    return `${tool} ${String(s.input.url)}`;
  if (s.tool === 'browser_wait')
    return `wait for ${String(s.input.condition)} ${JSON.stringify(s.input.value)}`;
  return tool;
}

// ---- brow-cli: `click --page p1 --role button --name 'Sign in'`, one step a line ----

/** POSIX single quotes: what a shell and the parser below both read back verbatim. */
const quote = (s: string): string =>
  /^[A-Za-z0-9_./:@%+,=-]+$/.test(s) && !/^(-?\d+(\.\d+)?|true|false|null)$/.test(s)
    ? s
    : `'${s.replace(/'/g, `'\\''`)}'`;

const kebab = (s: string) => s.replace(/_/g, '-');

function flag(name: string, v: unknown): string[] {
  if (v === undefined) return [];
  if (typeof v === 'string') return [`--${kebab(name)}`, quote(v)];
  if (typeof v === 'number' || typeof v === 'boolean') return [`--${kebab(name)}`, String(v)];
  return [`--${kebab(name)}:json`, quote(JSON.stringify(v))];
}

function locatorFlags(l: Locator): string[] {
  return [
    ...flag('role', l.role),
    ...flag('name', l.name),
    ...flag('text', l.text),
    ...(l.frame ? flag('frame', l.frame) : []),
    ...(l.shadow ? flag('shadow', l.shadow) : []),
    ...flag('nth', l.nth),
  ];
}

const header = (script: ReplayScript, comment: string): string[] => {
  const lines = [
    `${comment} brow replay script: ${script.steps.length} steps${script.exported_from ? ` exported from session ${script.exported_from}` : ''}${script.exported_at ? ` at ${script.exported_at}` : ''}.`,
    `${comment} Elements are found by role and name (--frame/--shadow: where; --nth: which of equal ones), never by ref;`,
    `${comment} the replay stops at the first step whose element is missing.`,
  ];
  for (const s of script.secrets ?? [])
    lines.push(
      `${comment} Secret ${s.name} (${s.target}): set it in the environment; it is never written here.`,
    );
  return lines;
};

export function renderCli(script: ReplayScript): string {
  const lines = [...header(script, '#'), '# Replay: brow replay FILE [--json]'];
  for (const s of script.steps) {
    const cmd = kebab(s.tool.replace(/^browser_/, ''));
    const parts = [cmd, ...flag('page', s.page), ...flag('opens', s.opens)];
    if (s.target) parts.push(...locatorFlags(s.target));
    if (s.to_target) parts.push(...flag('to', s.to_target));
    for (const [k, v] of Object.entries(s.input)) parts.push(...flag(k, v));
    lines.push(parts.join(' '));
  }
  return `${lines.join('\n')}\n`;
}

interface Token {
  text: string;
  quoted: boolean;
}

/** Split a line as a POSIX shell would for quotes ('…', "…" with \ escapes); no expansions. */
function tokenize(line: string, lineNo: number): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i]!)) i++;
    if (i >= line.length) break;
    let text = '';
    let quoted = false;
    while (i < line.length && !/\s/.test(line[i]!)) {
      const c = line[i]!;
      if (c === "'") {
        const end = line.indexOf("'", i + 1);
        if (end < 0) throw cliError(lineNo, 'a quote is not closed');
        text += line.slice(i + 1, end);
        quoted = true;
        i = end + 1;
      } else if (c === '"') {
        i++;
        quoted = true;
        while (i < line.length && line[i] !== '"') {
          if (line[i] === '\\' && i + 1 < line.length) i++;
          text += line[i];
          i++;
        }
        if (i >= line.length) throw cliError(lineNo, 'a quote is not closed');
        i++;
      } else if (c === '\\' && i + 1 < line.length) {
        text += line[i + 1];
        i += 2;
      } else {
        text += c;
        i++;
      }
    }
    out.push({ text, quoted });
  }
  return out;
}

function cliError(lineNo: number, why: string): BrowserError {
  return new BrowserError('invalid_request', `Replay script line ${lineNo}: ${why}.`, {
    hint: "Each line is a brow command with --flag value pairs, e.g. click --role button --name 'Sign in'.",
  });
}

const LOCATOR_FLAGS = new Set(['role', 'name', 'text', 'nth', 'frame', 'shadow']);

/** Read a brow-cli script back into steps. */
export function parseCli(text: string): ReplayScript {
  const steps: ReplayStep[] = [];
  const secrets = new Map<string, string>();
  text.split('\n').forEach((raw, idx) => {
    const lineNo = idx + 1;
    const line = raw.trim();
    const secret = /^#\s*Secret (BROW_SECRET_\d+) \((.*)\):/.exec(line);
    if (secret) secrets.set(secret[1]!, secret[2]!);
    if (!line || line.startsWith('#')) return;
    const tokens = tokenize(line, lineNo);
    if (tokens[0]?.text === 'brow' && !tokens[0].quoted) tokens.shift();
    const cmd = tokens.shift();
    if (!cmd || cmd.text.startsWith('-')) throw cliError(lineNo, 'it does not start with a command');
    const step: ReplayStep = { tool: `browser_${cmd.text.replace(/-/g, '_')}`, input: {} };
    const loc: Record<string, unknown> = {};
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      const m = /^--([a-z][a-z0-9-]*)(:json)?$/.exec(t.text);
      if (t.quoted || !m) throw cliError(lineNo, `expected a --flag, got ${JSON.stringify(t.text)}`);
      const v = tokens[++i];
      if (!v) throw cliError(lineNo, `--${m[1]} has no value`);
      let value: unknown = v.text;
      if (m[2]) {
        try {
          value = JSON.parse(v.text);
        } catch {
          throw cliError(lineNo, `--${m[1]}:json is not JSON`);
        }
      } else if (!v.quoted && /^(-?\d+(\.\d+)?|true|false|null)$/.test(v.text)) value = JSON.parse(v.text);
      const key = m[1]!.replace(/-/g, '_');
      if (key === 'page' || key === 'opens') step[key] = String(value);
      else if (key === 'to') step.to_target = value as Locator;
      else if (LOCATOR_FLAGS.has(key)) loc[key] = value;
      else step.input[key] = value;
    }
    if (Object.keys(loc).length > 0) {
      if (typeof loc.role !== 'string') throw cliError(lineNo, 'a locator needs --role');
      step.target = { name: '', ...loc } as unknown as Locator;
    }
    steps.push(step);
  });
  return {
    format: 'brow-replay',
    version: 1,
    ...(secrets.size > 0 ? { secrets: [...secrets].map(([name, target]) => ({ name, target })) } : {}),
    steps,
  };
}

// ---- typescript: the library API, one browser_replay_script call a step ----

export function renderTypescript(script: ReplayScript): string {
  const lines = [
    '/**',
    ...header(script, ' *'),
    ' * Run it with brow installed (or inside brow after `npm run build`): compile with tsc and run with node.',
    ' */',
    "import { createBrow } from 'brow';",
    '',
    'const brow = await createBrow({}, { strict: true });',
    'let session_id: string | undefined;',
    '',
    "/** Run one step on this replay's session (the first one starts a fresh session); throws at a failure. */",
    'async function step(n: number, s: Record<string, unknown>): Promise<void> {',
    '  const r = await brow.replayScript({',
    "    script: { format: 'brow-replay', version: 1, steps: [s] },",
    '    keep_session: true,',
    '    ...(session_id ? { session_id } : {}),',
    '  });',
    '  session_id = r.data.session_id;',
    '  console.log(`${n}. ${r.content}`);',
    '}',
    '',
    'try {',
  ];
  script.steps.forEach((s, i) => {
    lines.push(`  // ${i + 1}. ${stepSummary(s)}`);
    lines.push(`  await step(${i + 1}, ${JSON.stringify(s)});`);
  });
  lines.push('} finally {', '  await brow.close();', '}', '');
  return lines.join('\n');
}

/** Parse a script's text: JSON (the json export) or the brow-cli form. */
export function parseScript(text: string): ReplayScript {
  const t = text.trim();
  if (t.startsWith('{')) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch (e) {
      throw new BrowserError(
        'invalid_request',
        `The replay script is not valid JSON: ${(e as Error).message}`,
      );
    }
    return checkScript(v);
  }
  return parseCli(text);
}

/** A script object's shape, checked enough to replay it (the steps' inputs are checked by their tools). */
export function checkScript(v: unknown): ReplayScript {
  const s = v as Partial<ReplayScript> | null;
  if (!s || typeof s !== 'object' || !Array.isArray(s.steps)) {
    throw new BrowserError('invalid_request', 'A replay script is an object with steps: [{tool, input}].', {
      hint: 'Pass the text or JSON that browser_export_script wrote.',
    });
  }
  s.steps.forEach((st, i) => {
    if (!st || typeof st.tool !== 'string' || (st.input !== undefined && typeof st.input !== 'object')) {
      throw new BrowserError(
        'invalid_request',
        `Replay step ${i + 1} needs a tool name and an input object.`,
      );
    }
  });
  return {
    ...s,
    format: 'brow-replay',
    version: 1,
    steps: s.steps.map((st) => ({ ...st, input: st.input ?? {} })),
  };
}
