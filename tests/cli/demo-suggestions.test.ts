/**
 * `brow serve --demo` prints commands to try. Each is run here exactly as printed (a shell runs the
 * line, curl and all) against the served process, and must answer ok with the effect its comment
 * promises: the suggestions name the refs the demo page's outline really has, and actions those
 * elements take (issue 34: it used to suggest clicking e3, the search landmark).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUP_MS, buildOnce, spawnServe, type Spawned } from '../doors/helpers.js';
import { until } from './helpers.js';

/** The lines under "Try:", as printed (two spaces of indent removed), once the whole block is out. */
function suggestions(output: string): string[] | null {
  const at = output.indexOf('Try:\n');
  if (at < 0) return null;
  const block = output.slice(at + 'Try:\n'.length);
  const lines: string[] = [];
  for (const line of block.split('\n')) {
    if (!line.startsWith('  ')) break;
    lines.push(line.slice(2));
  }
  // the block is one write; wait until its last line has its newline
  return lines.length > 0 && block.startsWith(lines.map((l) => `  ${l}\n`).join('')) ? lines : null;
}

const sh = (line: string) =>
  new Promise<string>((resolve, reject) =>
    execFile('sh', ['-c', line], { timeout: 90_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${line}\n${stderr}`)) : resolve(stdout),
    ),
  );

interface Answer {
  ok: boolean;
  content: string;
  data: Record<string, any>;
}

describe('brow serve --demo: the printed suggestions', () => {
  let served: Spawned;
  let dir: string;
  let lines: string[];

  beforeAll(async () => {
    buildOnce();
    dir = mkdtempSync(join(tmpdir(), 'brow-demo-'));
    served = await spawnServe(['--demo'], { BROW_RUNTIME_DIR: dir });
    const printed = await until(() => suggestions(served.output()) !== null, 90_000);
    expect(printed, served.output()).toBe(true);
    lines = suggestions(served.output())!;
  }, SETUP_MS);

  afterAll(async () => {
    await served?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('are curl calls of this server: list, fill the search box, press its button', () => {
    expect(lines.length).toBe(3);
    for (const l of lines)
      expect(l).toMatch(new RegExp(`^curl -s -X POST ${served.url}/v1/tools/browser_\\w+ `));
    expect(lines.map((l) => /\/v1\/tools\/(\w+)/.exec(l)![1])).toEqual([
      'browser_list_elements',
      'browser_fill',
      'browser_click',
    ]);
  });

  it('each answers ok, as printed, with the effect it promises', async () => {
    const answers: Answer[] = [];
    for (const line of lines) {
      const a = JSON.parse(await sh(line)) as Answer;
      expect(a.ok, `${line}\n${a.content}`).toBe(true);
      answers.push(a);
    }
    const [listed, filled, clicked] = answers as [Answer, Answer, Answer];
    const input = (line: string) => JSON.parse(/-d '([^']*)'/.exec(line)![1]!) as { ref: string };
    const rows = listed.data.snapshot.refs as { ref: string; role: string; allowed_actions: string[] }[];
    const row = (ref: string) => rows.find((r) => r.ref === ref);

    // the fill names the outline's textbox, which takes a fill, and leaves "lamp" in it
    const box = row(input(lines[1]!).ref);
    expect(box).toMatchObject({ role: 'textbox' });
    expect(box!.allowed_actions).toContain('fill');
    expect(filled.data.action.outcome).toBe('completed');
    expect(filled.data.action.post_action_state.value).toBe('lamp');

    // the click names the outline's button, which takes a click, and the search adds the lamps as links
    const button = row(input(lines[2]!).ref);
    expect(button).toMatchObject({ role: 'button' });
    expect(button!.allowed_actions).toContain('click');
    expect(clicked.data.action.outcome).toBe('completed');
    expect(clicked.content).toMatch(/Added: \[link ref=e\d+[^\]]*\] Desk lamp/);
    expect(clicked.content).toMatch(/\[link ref=e\d+[^\]]*\] Floor lamp/);
    expect(clicked.content).not.toMatch(/\] Chair/);
  }, 120_000);
});
