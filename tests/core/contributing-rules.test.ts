/**
 * docs/CONTRIBUTING.md states rules about state, puppeteer's internals and bounded waits; this test
 * reads src/ with the TypeScript compiler so each rule stays true. Each check names the file and
 * line it objects to. src/core/snapshot/injected/ is left out: it is the in-page script, bundled
 * and run in the page (no Node, no puppeteer, no module state shared between pages).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { scaled } from '../scale.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INJECTED = 'src/core/snapshot/injected/';

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (`${rel}/` !== INJECTED) out.push(...sourceFiles(rel));
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.test.ts')) {
      out.push(rel);
    }
  }
  return out;
}

const FILES = sourceFiles('src');
const ALL_TEXT = FILES.map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
const parsed = (file: string) =>
  ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
const where = (sf: ts.SourceFile, n: ts.Node) =>
  `${relative(ROOT, sf.fileName) || sf.fileName}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;

// ---------------------------------------------------------------------------------------------
// 1. Module-level collections

/**
 * Every module-level Map/Set/WeakMap/WeakSet that is not a constant table, by `file name`, with
 * why it may live as long as the process. docs/CONTRIBUTING.md lists the same ones. State that
 * lives as long as a page or a session goes in its StateBag (src/core/state-bag.ts) instead.
 */
const DELIBERATE: Record<string, string> = {
  'src/runtime/door-names.ts registered':
    'process registry: the bus door registers its function names once; keyed by door (5 at most), each a row per capability',
  'src/capabilities/registry.ts byName':
    'constant table: the capabilities by name, built once from the module list',
  'src/core/tool/tab-worker.ts runs':
    "a tab worker thread's calls under way (the thread is one tab); each run deletes itself when it ends",
  'src/doors/bus/triggers.ts startUrls': 'WeakMap keyed by the BrowRuntime: freed with it',
  'src/core/observe/page-observers.ts routed':
    "WeakMap keyed by puppeteer's HTTPRequest: freed with the request",
  'src/core/snapshot/page-script.ts repaired': 'WeakSet of puppeteer Frames: freed with the frame',
};

/**
 * Every module-level `let` (a binding the module reassigns), by `file name`, with why it is one
 * per process. docs/CONTRIBUTING.md lists the same ones. Each holds one value (a cache, a counter,
 * a handle), never a collection of pages or sessions.
 */
const PROCESS_BINDINGS: Record<string, string> = {
  'src/runtime/door-names.ts cliTable': 'cache of a table derived from the registry, built once',
  'src/doors/cli/config-cmd.ts specs': 'cache of the configuration flags, built once from the schema',
  'src/doors/cli/commands.ts table': 'cache of the command table, built once from the registry',
  'src/doors/sdk/tool-client.ts shared':
    'the one shared tool client of this process, replaced when its key changes',
  'src/doors/sdk/tool-client.ts sharedKey': "the shared client's key",
  'src/core/browser/prespawn.ts prespawned':
    'the one Chromium started before brow loads, until a launch takes it or it is discarded',
  'src/core/browser/temp-profiles.ts sweep': 'the one sweep of left temporary profiles per process',
  'src/core/ids.ts WORKER_ID': "this process's worker id",
  'src/core/ids.ts counter': 'id counter',
  'src/core/scripts/evaluate.ts groupCounter': 'object group counter',
  'src/core/tool/tab-host.ts root': 'cache of the package root',
  'src/core/tool/tab-worker.ts state': "a tab worker thread's one tab (the thread is the owner)",
  'src/core/tool/tab-worker.ts closing': 'the tab worker thread is closing',
  'src/core/read/to-markdown.ts service': 'cache of the one HTML-to-markdown converter',
};

/** Module-level `let`s (outside every function and class). */
function moduleLets(file: string): { key: string; at: string }[] {
  const sf = parsed(file);
  const out: { key: string; at: string }[] = [];
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const list = st.declarationList;
    if ((list.flags & (ts.NodeFlags.Const | ts.NodeFlags.Using | ts.NodeFlags.AwaitUsing)) !== 0) continue;
    for (const d of list.declarations)
      if (ts.isIdentifier(d.name)) out.push({ key: `${file} ${d.name.text}`, at: where(sf, d) });
  }
  return out;
}

const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'SafeMap']);
const OWNER_TYPES = /\b(BrowPage|Session|Page|BrowserContext)\b/;

interface Found {
  key: string;
  at: string;
  constant: boolean;
  ownerKeyed: boolean;
}

/** Is this expression a table written out (strings, numbers, arrays of them, spreads)? */
function literal(e: ts.Expression): boolean {
  if (ts.isStringLiteral(e) || ts.isNumericLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return true;
  // a spread of generated names (F1…F24) is still a table written once
  if (ts.isArrayLiteralExpression(e)) return e.elements.every((x) => ts.isSpreadElement(x) || literal(x));
  if (ts.isAsExpression(e) || ts.isSatisfiesExpression(e)) return literal(e.expression);
  return false;
}

/** Collections made when the module loads (not inside a function or an instance field). */
function moduleCollections(file: string): Found[] {
  const sf = parsed(file);
  const out: Found[] = [];
  const visit = (n: ts.Node, perCall: boolean): void => {
    const instanceField =
      ts.isPropertyDeclaration(n) && !n.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
    const inner = perCall || ts.isFunctionLike(n) || instanceField;
    if (
      !inner &&
      ts.isNewExpression(n) &&
      ts.isIdentifier(n.expression) &&
      COLLECTIONS.has(n.expression.text)
    ) {
      let decl: ts.Node = n.parent;
      while (ts.isAsExpression(decl) || ts.isSatisfiesExpression(decl) || ts.isParenthesizedExpression(decl))
        decl = decl.parent;
      const name =
        ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name) ? decl.name.text : '(unnamed)';
      const isConst =
        ts.isVariableDeclaration(decl) &&
        ts.isVariableDeclarationList(decl.parent) &&
        (decl.parent.flags & ts.NodeFlags.Const) !== 0;
      // written to anywhere in src/ (an exported table too): not a constant
      const mutated = new RegExp(`\\b${name}\\s*\\.\\s*(add|set|delete|clear)\\s*\\(`).test(ALL_TEXT);
      const args = n.arguments ?? [];
      const typeText = [
        ...(n.typeArguments ?? []).map((t) => t.getText(sf)),
        ts.isVariableDeclaration(decl) && decl.type ? decl.type.getText(sf) : '',
      ].join(' ');
      out.push({
        key: `${file} ${name}`,
        at: where(sf, n),
        constant: isConst && !mutated && args.length === 1 && literal(args[0]!),
        ownerKeyed: OWNER_TYPES.test(typeText),
      });
    }
    ts.forEachChild(n, (c) => visit(c, inner));
  };
  visit(sf, false);
  return out;
}

describe('module-level state (CONTRIBUTING: Who owns state)', () => {
  const found = FILES.flatMap(moduleCollections);

  it('no module-level Map/Set outside the deliberate registries (page or session state goes in its StateBag)', () => {
    const unexpected = found
      .filter((f) => !f.constant && !(f.key in DELIBERATE))
      .map((f) => `${f.at} ${f.key.split(' ')[1]}`);
    expect(
      unexpected,
      'Keep page state in page.state and session state in session.state (slot(), src/core/state-bag.ts); ' +
        'a map keyed by another object is a WeakMap; a deliberate process registry is listed in DELIBERATE ' +
        'here and in docs/CONTRIBUTING.md with its bound.',
    ).toEqual([]);
  });

  it('none is keyed by a page or a session', () => {
    expect(found.filter((f) => f.ownerKeyed).map((f) => `${f.at} ${f.key}`)).toEqual([]);
  });

  it('every deliberate registry still exists (the list names nothing stale)', () => {
    const keys = new Set(found.map((f) => f.key));
    expect(Object.keys(DELIBERATE).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('the docs list every deliberate registry, and no other', () => {
    expect(docListed('Deliberate module-level registries')).toEqual(Object.keys(DELIBERATE).sort());
  });

  const lets = FILES.flatMap(moduleLets);

  it('no module-level let outside the named process bindings', () => {
    expect(
      lets.filter((l) => !(l.key in PROCESS_BINDINGS)).map((l) => `${l.at} ${l.key.split(' ')[1]}`),
      'A module-level let is one value per process: keep page or session state in its StateBag, ' +
        "brow's in core.state; a deliberate one is listed in PROCESS_BINDINGS here and in docs/CONTRIBUTING.md.",
    ).toEqual([]);
  });

  it('every named process binding still exists', () => {
    const keys = new Set(lets.map((l) => l.key));
    expect(Object.keys(PROCESS_BINDINGS).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('the docs list every process binding, and no other', () => {
    expect(docListed('Module-level bindings')).toEqual(Object.keys(PROCESS_BINDINGS).sort());
  });
});

/**
 * The `file` `name` pairs a bullet list of docs/CONTRIBUTING.md names, from the bullet that starts
 * with `title` to the next top-level bullet: each sub-bullet names one file and after it the
 * names in that file, e.g. "- `src/core/ids.ts` `WORKER_ID`, `counter`: …".
 */
function docListed(title: string): string[] {
  const doc = readFileSync(join(ROOT, 'docs/CONTRIBUTING.md'), 'utf8').split('\n');
  const start = doc.findIndex((l) => l.startsWith(`- ${title}`));
  if (start < 0) return [`(no bullet "${title}" in docs/CONTRIBUTING.md)`];
  const out: string[] = [];
  for (const line of doc.slice(start + 1)) {
    if (!line.startsWith('  -')) break;
    let file = '';
    for (const m of line.matchAll(/`([^`]+)`/g)) {
      const word = m[1]!;
      if (word.startsWith('src/')) file = word;
      else if (file && /^[A-Za-z_$][\w$]*$/.test(word)) out.push(`${file} ${word}`);
    }
  }
  return out.sort();
}

// ---------------------------------------------------------------------------------------------
// 2. puppeteer's internals

const INTERNALS = 'src/core/browser/internals.ts';

function program(): ts.Program {
  const cfg = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const opts = ts.parseJsonConfigFileContent(cfg.config, ts.sys, ROOT).options;
  return ts.createProgram({
    rootNames: FILES.map((f) => join(ROOT, f)),
    options: { ...opts, noEmit: true },
  });
}

/** Is this type (or one member of a union) declared by puppeteer-core? */
function fromPuppeteer(t: ts.Type): boolean {
  if (t.isUnion() || t.isIntersection()) return t.types.some(fromPuppeteer);
  const sym = t.aliasSymbol ?? t.getSymbol();
  return !!sym?.declarations?.some((d) =>
    d.getSourceFile().fileName.includes('/node_modules/puppeteer-core/'),
  );
}

/**
 * What reaches puppeteer past its public types, outside internals.ts: a member whose name starts
 * with `_` on a puppeteer object (`page._client()`, `Connection.prototype._rawSend`), and a cast of
 * a puppeteer object to anything but another puppeteer type (`frame as unknown as {client}`,
 * `page as any`), which is how every private read so far got past the compiler.
 */
function privateReads(p: ts.Program): string[] {
  const checker = p.getTypeChecker();
  const out: string[] = [];
  for (const file of FILES) {
    if (file === INTERNALS) continue;
    const sf = p.getSourceFile(join(ROOT, file));
    if (!sf) continue;
    const visit = (n: ts.Node): void => {
      if (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) {
        const name = ts.isPropertyAccessExpression(n)
          ? n.name.text
          : ts.isStringLiteralLike(n.argumentExpression)
            ? n.argumentExpression.text
            : '';
        if (name.startsWith('_') && fromPuppeteer(checker.getTypeAtLocation(n.expression)))
          out.push(`${where(sf, n)} ${n.getText(sf)}`);
      }
      // the outermost of `x as unknown as T` answers for the chain
      const chained = !!n.parent && (ts.isAsExpression(n.parent) || ts.isTypeAssertionExpression(n.parent));
      if ((ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) && !chained) {
        let inner: ts.Expression = n.expression;
        while (
          ts.isAsExpression(inner) ||
          ts.isTypeAssertionExpression(inner) ||
          ts.isParenthesizedExpression(inner)
        )
          inner = inner.expression;
        const to = checker.getTypeAtLocation(n.type);
        // `x as unknown` alone hands the value on without reading into it
        const widening = (to.flags & ts.TypeFlags.Unknown) !== 0;
        if (!widening && fromPuppeteer(checker.getTypeAtLocation(inner)) && !fromPuppeteer(to))
          out.push(`${where(sf, n)} ${n.getText(sf).slice(0, 80)}`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

describe("puppeteer's internals (CONTRIBUTING: read only through internals.ts)", () => {
  it(
    'no private member of a puppeteer object, and no cast of one, outside internals.ts',
    () => {
      expect(
        privateReads(program()),
        'Add an accessor to src/core/browser/internals.ts (checked, failing by name) and call it from ' +
          'tests/core/puppeteer-internals.test.ts.',
      ).toEqual([]);
      // a whole-program type check: minutes on a loaded machine (it timed out at 120 s under a load of 24)
    },
    scaled(120_000),
  );
});

// ---------------------------------------------------------------------------------------------
// 3. Bounded waits

/**
 * Functions that still race a timer by hand, with the owner's plan. Empty when they are fixed;
 * the test fails on an entry that no longer races a timer, so the list only shrinks.
 */
const RACES_TO_FIX: Record<string, string> = {};

function isCall(n: ts.Node, name: string): n is ts.CallExpression {
  if (!ts.isCallExpression(n)) return false;
  const e = n.expression;
  if (ts.isIdentifier(e)) return e.text === name;
  return ts.isPropertyAccessExpression(e) && (e.getText() === name || e.name.text === name.split('.').pop());
}

function fnName(fn: ts.Node): string {
  if ((ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) && fn.name) return fn.name.getText();
  if (
    ts.isVariableDeclaration(fn.parent) ||
    ts.isPropertyAssignment(fn.parent) ||
    ts.isPropertyDeclaration(fn.parent)
  )
    return fn.parent.name.getText();
  return '(anonymous)';
}

/** Functions (with every function inside them) that call both Promise.race and setTimeout. */
function handRaces(file: string): { key: string; at: string }[] {
  const sf = parsed(file);
  const out: { key: string; at: string }[] = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      n.expression.getText(sf) === 'Promise.race'
    ) {
      // the outermost function around the race that is not an argument of it (the race's own
      // executor arrows are part of the same piece of work)
      let fn: ts.Node = sf;
      for (let p: ts.Node | undefined = n.parent; p; p = p.parent)
        if (ts.isFunctionLike(p)) {
          fn = p;
          break;
        }
      let timer = false;
      const scan = (m: ts.Node): void => {
        if (isCall(m, 'setTimeout')) timer = true;
        else ts.forEachChild(m, scan);
      };
      scan(fn);
      if (timer) out.push({ key: `${file} ${fn === sf ? '(module)' : fnName(fn)}`, at: where(sf, n) });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('bounded waits (CONTRIBUTING: from src/core/deadline.ts)', () => {
  const races = FILES.filter((f) => f !== 'src/core/deadline.ts').flatMap(handRaces);

  it('no hand-written Promise.race with a timer outside deadline.ts', () => {
    expect(
      races.filter((r) => !(r.key in RACES_TO_FIX)).map((r) => `${r.at} ${r.key.split(' ')[1]}`),
      'Use within, withDeadline, settledWithin, unlessAborted, sleep or sharedDeadline from src/core/deadline.ts.',
    ).toEqual([]);
  });

  it('the list of races to fix names only races that are still there', () => {
    const keys = new Set(races.map((r) => r.key));
    expect(Object.keys(RACES_TO_FIX).filter((k) => !keys.has(k))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// 4. StateBag slots

/** Every `slot('name', …)` call in src/, with whether it is made when the module loads. */
function slotCalls(file: string): { name: string; at: string; moduleLevel: boolean }[] {
  const sf = parsed(file);
  const out: { name: string; at: string; moduleLevel: boolean }[] = [];
  const visit = (n: ts.Node, inFn: boolean): void => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'slot') {
      const first = n.arguments[0];
      out.push({
        name: first && ts.isStringLiteralLike(first) ? first.text : '(computed)',
        at: where(sf, n),
        moduleLevel: !inFn,
      });
    }
    ts.forEachChild(n, (c) => visit(c, inFn || ts.isFunctionLike(n)));
  };
  visit(sf, false);
  return out;
}

describe('StateBag slots (CONTRIBUTING: declare a slot once, in the folder that owns the state)', () => {
  const slots = FILES.filter((f) => f !== 'src/core/state-bag.ts').flatMap(slotCalls);

  it('each slot is declared when its module loads (a slot made per call is a new key each time)', () => {
    expect(slots.filter((s) => !s.moduleLevel).map((s) => `${s.at} ${s.name}`)).toEqual([]);
  });

  it('no two slots share a name', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const s of slots) {
      const first = seen.get(s.name);
      if (first) twice.push(`${s.name}: ${first} and ${s.at}`);
      else seen.set(s.name, s.at);
    }
    expect(twice).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// 5. No fixed sleeps in tests

/** Every .ts file under tests/ (fixtures included: their servers are test code too). */
function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...testFiles(rel));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/**
 * The fixed sleeps a test may keep, by `file setTimeout(...)` text, with why. A sleep inside a loop
 * is the step of a poll (it waits on a condition the loop checks) and is not listed; a sleep on its
 * own stands for something that happens (an event, a state): wait on that instead, with
 * eventually() from tests/scale.ts or the event, or give the product constant it mirrors a test
 * override. Only "nothing happens for N ms" may stay, short and scaled where a machine's speed matters.
 */
const SLEEPS_ALLOWED: Record<string, string> = {
  'tests/core/invoke-deadline.test.ts setTimeout(r, scaled(200))':
    'behaviour under test: work a cancel left behind rejects with no one to catch it',
  'tests/bus/triggers.test.ts setTimeout(r, scaled(200))':
    'behaviour under test: an unbound trigger gets nothing more',
  'tests/doors/mcp-prelaunch.test.ts setTimeout(r, scaled(1500))':
    'behaviour under test: with prelaunch off no Chromium starts while nothing needs one',
  'tests/cli/library.test.ts setTimeout(r, scaled(100))':
    'behaviour under test: an unsubscribed listener gets no more events',
  'tests/core/idle-in-use.test.ts setTimeout(r, left)':
    "behaviour under test: an agent's pace between calls, which the idle timeout must tolerate",
  'tests/faults/signals.test.ts setTimeout(r, 50)':
    'behaviour under test: a second SIGTERM that lands while the first is shutting down',
  'tests/cli/readme-commands.test.ts setTimeout(r, 15_000)':
    "a bound raced against the demo's exit in cleanup, not a wait (it ends at the exit)",
  'tests/bus/attach.test.ts setTimeout(r, 500)':
    'cleanup: one retry of a profile removal Chromium may still be writing to',
  "tests/fixtures/server.ts setTimeout(r, Number(u.searchParams.get('ms') ?? 300))":
    'the fixture server answering slowly is the behaviour a page under test sees (a slow response)',
  'tests/vision/stand-in.ts setTimeout(r, state.delayMs)':
    'the stand-in vision model answering slowly on purpose (a test sets delayMs)',
  'tests/live/handoff-deadline.test.ts setTimeout(r, INVOKE_DEADLINE_MS + scaled(500))':
    "behaviour under test: nothing ends the handoff past invoke's deadline (call_grace_ms set short)",
  'tests/core/walk-ahead.test.ts setTimeout(r, WATCHDOG_MS * 2 + scaled(1000))':
    'behaviour under test: no watchdog stops a script hung at load while nobody calls (script_watchdog_ms set short)',
  'tests/doors/http-keep-alive.test.ts setTimeout(r, ADVERTISED_MS + 1000)':
    'behaviour under test: a kept-alive socket idles past the time the HTTP door advertises',
  'tests/core/walk-ahead.test.ts setTimeout(r, scaled(600))':
    'behaviour under test: with walk_ahead false nothing walks unasked',
};

/** Each `new Promise((r) => setTimeout(r, …))` in a file that is not inside a loop, keyed as above. */
function bareSleeps(file: string): { key: string; at: string }[] {
  const sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { key: string; at: string }[] = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isNewExpression(n) &&
      n.expression.getText(sf) === 'Promise' &&
      n.arguments?.length === 1 &&
      ts.isArrowFunction(n.arguments[0]!) &&
      n.arguments[0].parameters.length === 1
    ) {
      const resolve = n.arguments[0].parameters[0]!.name.getText(sf);
      const body = n.arguments[0].body;
      if (
        ts.isCallExpression(body) &&
        body.expression.getText(sf) === 'setTimeout' &&
        body.arguments[0]?.getText(sf) === resolve
      ) {
        let inLoop = false;
        for (let p: ts.Node | undefined = n.parent; p && !ts.isSourceFile(p); p = p.parent) {
          if (ts.isIterationStatement(p, false)) {
            inLoop = true;
            break;
          }
          if (ts.isFunctionLike(p) && !ts.isArrowFunction(p)) break;
        }
        const text = body
          .getText(sf)
          .replace(/\s+/g, ' ')
          .replace(new RegExp(`\\(${resolve},`), '(r,');
        if (!inLoop) out.push({ key: `${file} ${text}`, at: where(sf, n) });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('no fixed sleeps in tests (CONTRIBUTING: wait on the event or state, never on the clock)', () => {
  const sleeps = testFiles('tests').flatMap(bareSleeps);

  it('every sleep outside a poll loop is on the allow-list, with its reason', () => {
    expect(
      sleeps
        .filter((s) => !(s.key in SLEEPS_ALLOWED))
        .map((s) => `${s.at} ${s.key.split(' ').slice(1).join(' ')}`),
      'Wait with eventually() (tests/scale.ts) or on the event; a product constant gets a test override.',
    ).toEqual([]);
  });

  it('the allow-list names only sleeps that are still there', () => {
    const keys = new Set(sleeps.map((s) => s.key));
    expect(Object.keys(SLEEPS_ALLOWED).filter((k) => !keys.has(k))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Tests drive the real browser

describe('tests (CONTRIBUTING: no mock of the browser)', () => {
  it('no test mocks puppeteer-core or a module of src/core', () => {
    const MOCK = /\bvi\s*\.\s*(?:do)?[mM]ock\s*\(\s*['"`]([^'"`]+)['"`]/g;
    const found: string[] = [];
    for (const f of testFiles('tests')) {
      const text = readFileSync(join(ROOT, f), 'utf8');
      for (const m of text.matchAll(MOCK))
        if (/^puppeteer|\/src\/core\//.test(m[1]!)) found.push(`${f}: vi.mock('${m[1]}')`);
    }
    expect(found, 'Drive real Chromium against fixture pages (tests/helpers.ts).').toEqual([]);
  });
});
