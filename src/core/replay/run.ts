/**
 * Replay a script on a session, step by step, with no model: each locator becomes a ref on the
 * page as it is now, each step runs its tool, and the first step that fails stops the replay with
 * its number, its locator and why. Tools run through `call` (the capability handlers), so a
 * replayed click is the same click an agent makes.
 */
import { BrowserError, classifyError } from '../errors.js';
import type { BrowPage } from '../session/page.js';
import type { Session } from '../session/session.js';
import { slot } from '../state-bag.js';
import { describeLocator, resolveLocator, type Locator } from './locator.js';
import { stepSummary, type ReplayScript, type ReplayStep } from './script.js';

export interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
}

export interface ReplayDeps {
  /** Run a tool by name; throws a BrowserError when it fails. */
  call(tool: string, input: Record<string, unknown>): Promise<ToolAnswer>;
  /** Whether `call` can run a tool (checked for every step before the first runs). */
  runnable(tool: string): boolean;
  /** A page of the session by id (null when gone). */
  page(id: string): BrowPage | null;
  /** A step finished: its number (1-based), the total, a line about it. */
  progress?(done: number, total: number, line: string): void;
  /** Secrets by name (BROW_SECRET_1); a name not given is read from the environment. */
  secrets?: Record<string, string>;
}

export interface StepReport {
  step: number;
  tool: string;
  /** What the step acted on: `button "Sign in"`, a URL, a wait. */
  what: string;
  ok: boolean;
  page_id?: string;
  /** The tool's answer, first line. */
  result: string;
}

/** Page aliases (p1, p2…) → page ids, kept in the session so a script can run a step a call. */
const replayPages = slot('replay.pages', () => new Map<string, string>());

const DEFAULT_FIND_MS = 5000;
const SECRET_RE = /\$\{(BROW_SECRET_\d+)\}/g;

function fillSecrets(v: unknown, step: number, secrets: Record<string, string>): unknown {
  if (typeof v === 'string') {
    return v.replace(SECRET_RE, (_, name: string) => {
      const s = secrets[name] ?? process.env[name];
      if (s === undefined) {
        throw new BrowserError(
          'invalid_request',
          `Step ${step} needs the secret ${name}, which is not set.`,
          {
            hint: `Set ${name} in the environment (or pass it in secrets) and replay again.`,
            details: { step, secret: name },
          },
        );
      }
      return s;
    });
  }
  if (Array.isArray(v)) return v.map((x) => fillSecrets(x, step, secrets));
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fillSecrets(x, step, secrets)]));
  }
  return v;
}

/** Wait until the session has a page that was not there before (a popup the step opened). */
async function newPage(session: Session, before: Set<string>, timeoutMs: number): Promise<string | null> {
  const t0 = Date.now();
  for (;;) {
    const fresh = [...session.pages.keys()].find((id) => !before.has(id));
    if (fresh) return fresh;
    if (Date.now() - t0 >= timeoutMs) return null;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const firstLine = (s: string) => (s.split('\n')[0] ?? '').slice(0, 200);

/** Run every step; answers the reports, or throws at the first failing step (details.steps has the reports so far). */
export async function runScript(
  script: ReplayScript,
  session: Session,
  deps: ReplayDeps,
): Promise<StepReport[]> {
  const aliases = session.state.get(replayPages);
  const findMs = script.step_timeout_ms ?? DEFAULT_FIND_MS;
  const reports: StepReport[] = [];
  const total = script.steps.length;
  script.steps.forEach((step, i) => {
    if (!deps.runnable(step.tool)) {
      throw new BrowserError('invalid_request', `Replay step ${i + 1}: a replay cannot run ${step.tool}.`, {
        hint: 'Scripts hold page, navigation, action, form, wait and dialog steps.',
        details: { step: i + 1, tool: step.tool },
      });
    }
  });
  for (const [i, step] of script.steps.entries()) {
    const n = i + 1;
    const what = stepSummary(step);
    try {
      reports.push(await runStep(step, n, session, aliases, deps, findMs, script.step_timeout_ms));
      deps.progress?.(n, total, `${n}. ${what}: ${reports[reports.length - 1]!.result}`);
    } catch (e) {
      const err = classifyError(e);
      const locator = step.target ? describeLocator(step.target) : null;
      reports.push({ step: n, tool: step.tool, what, ok: false, result: err.message });
      deps.progress?.(n, total, `${n}. ${what}: FAILED ${err.message}`);
      throw new BrowserError(err.code, `Replay stopped at step ${n} of ${total} (${what}): ${err.message}`, {
        hint: err.hint,
        details: {
          ...err.details,
          step: n,
          tool: step.tool,
          ...(locator ? { locator } : {}),
          session_id: session.id,
          steps: reports,
        },
        cause: err,
      });
    }
  }
  return reports;
}

async function runStep(
  step: ReplayStep,
  n: number,
  session: Session,
  aliases: Map<string, string>,
  deps: ReplayDeps,
  findMs: number,
  stepMs: number | undefined,
): Promise<StepReport> {
  const input = fillSecrets(step.input, n, deps.secrets ?? {}) as Record<string, unknown>;
  if (step.tool === 'browser_wait' && input.timeout_ms === undefined && stepMs !== undefined)
    input.timeout_ms = stepMs;
  const opening = step.tool === 'browser_open_page';
  let pageId: string | undefined;
  if (opening) input.session_id = session.id;
  else {
    pageId = step.page ? aliases.get(step.page) : (session.activePageId ?? undefined);
    if (!pageId) {
      throw new BrowserError(
        'page_not_found',
        step.page ? `Page ${step.page} was not opened by an earlier step.` : 'No page is open.',
        { hint: 'A script starts with browser_open_page; pages a step opens are named by its "opens".' },
      );
    }
    input.page_id = pageId;
  }
  const page = pageId ? deps.page(pageId) : null;
  const find = async (l: Locator, ms: number) => {
    if (!page) throw new BrowserError('page_closed', `Page ${step.page ?? pageId} is closed.`);
    return resolveLocator(page, l, ms);
  };
  if (step.target) {
    const wait = step.tool === 'browser_wait';
    const gone = wait && ['hidden', 'detached'].includes(String(input.state ?? ''));
    const ms = wait ? Number(input.timeout_ms ?? 30_000) : findMs;
    if (gone) {
      // waiting for an element to go: one that cannot be found is gone already
      const ref = await find(step.target, 0).catch(() => null);
      if (!ref)
        return { step: n, tool: step.tool, what: stepSummary(step), ok: true, result: 'already gone' };
      input.value = ref;
    } else input[wait ? 'value' : 'ref'] = await find(step.target, ms);
  }
  if (step.to_target) input.to_ref = await find(step.to_target, findMs);
  if (Array.isArray(input.fields)) {
    const out: Record<string, unknown>[] = [];
    for (const f of input.fields as { target?: Locator; ref?: string; value: unknown }[]) {
      out.push(f.target ? { ref: await find(f.target, findMs), value: f.value } : f);
    }
    input.fields = out;
  }
  const before = new Set(session.pages.keys());
  const r = await deps.call(step.tool, input);
  const action = r.data.action as { ok?: boolean; opened_pages?: { page_id: string }[] } | undefined;
  if (action?.ok === false) {
    throw new BrowserError(
      'action_failed',
      `The ${step.tool.replace(/^browser_/, '')} failed: ${firstLine(r.text)}`,
    );
  }
  let resultPage = typeof r.data.page_id === 'string' ? r.data.page_id : pageId;
  if (step.opens) {
    const opened = opening
      ? (r.data.page_id as string)
      : (action?.opened_pages?.[0]?.page_id ?? (await newPage(session, before, findMs)));
    if (!opened) {
      throw new BrowserError(
        'timeout',
        `The step opened page ${step.opens} when recorded; no new page opened now.`,
      );
    }
    aliases.set(step.opens, opened);
    resultPage = opened;
  }
  return {
    step: n,
    tool: step.tool,
    what: stepSummary(step),
    ok: true,
    ...(resultPage ? { page_id: resultPage } : {}),
    result: firstLine(r.text),
  };
}
