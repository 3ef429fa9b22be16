/**
 * A tool's policy is declared on its capability (src/capabilities/define.ts, CapabilityPolicy), and
 * every door, the cluster and replay derive from it: no list of tool names decides anything.
 * docs/CONTRIBUTING.md "A tool's policy". This fails on a capability without a field a door needs.
 */
import { describe, expect, it } from 'vitest';
import type { AnyCapability } from '../../src/capabilities/define.js';
import { capabilities } from '../../src/capabilities/registry.js';
import { places } from '../../src/cluster/placement.js';
import { coreTools, parseCaps } from '../../src/doors/mcp/caps.js';
import { toMcpTool } from '../../src/doors/mcp/tools.js';

/** What is missing or wrong in a capability's policy, each a line naming the field. */
function policyGaps(c: AnyCapability): string[] {
  const out: string[] = [];
  const p = c as unknown as Record<string, unknown>;
  if (p.tier !== 'core' && p.tier !== 'more')
    out.push(`${c.name}: tier ('core' | 'more', the MCP door's default list)`);
  if (p.world !== 'open' && p.world !== 'closed')
    out.push(`${c.name}: world ('open' | 'closed', MCP's openWorldHint)`);
  if (p.placement !== undefined && p.placement !== 'place')
    out.push(`${c.name}: placement ('place' or absent, the cluster)`);
  const r = p.replay;
  if (r !== false) {
    if (typeof r !== 'object' || r === null || typeof (r as { log?: unknown }).log !== 'boolean')
      out.push(`${c.name}: replay (false, or {log, textInput?, movesPages?}: the action log and replay)`);
    else {
      const t = (r as { textInput?: unknown }).textInput;
      const shape = c.input.shape as Record<string, unknown>;
      if (t !== undefined && (typeof t !== 'string' || !(t in shape)))
        out.push(`${c.name}: replay.textInput names no input field (${String(t)})`);
    }
  }
  return out;
}

describe("a tool's policy lives on its capability", () => {
  it('every capability declares each field a door, the cluster and replay read', () => {
    expect(capabilities.flatMap(policyGaps)).toEqual([]);
  });

  it('the check fails on a capability that lacks one', () => {
    const click = capabilities.find((c) => c.name === 'browser_click')!;
    const { tier: _t, replay: _r, world: _w, ...bare } = click;
    expect(policyGaps(bare as unknown as AnyCapability)).toHaveLength(3);
    expect(policyGaps({ ...click, replay: { log: true, textInput: 'nope' } })).toEqual([
      'browser_click: replay.textInput names no input field (nope)',
    ]);
  });

  it('the MCP default list is the core tier, and fits its budget with room', () => {
    const core = capabilities.filter(parseCaps('core', capabilities)).map((c) => c.name);
    expect(core.sort()).toEqual(coreTools(capabilities).sort());
    expect(core.length).toBeGreaterThan(10);
  });

  it('no policy field reaches a door listing (the MCP tool list has a byte budget)', () => {
    for (const c of capabilities) {
      const listed = JSON.stringify(toMcpTool(c, 'compact'));
      for (const field of ['"tier"', '"replay"', '"world"', '"placement"', 'movesPages', 'textInput'])
        expect(listed, c.name).not.toContain(field);
      expect(listed.includes('"openWorldHint":false'), c.name).toBe(c.world === 'closed');
    }
  });

  it('what the cluster places, what replay runs and logs, all come from the declarations', () => {
    expect(
      capabilities
        .filter((c) => places(c.name))
        .map((c) => c.name)
        .sort(),
    ).toEqual(
      capabilities
        .filter((c) => c.placement === 'place')
        .map((c) => c.name)
        .sort(),
    );
    // a tool the log keeps is one a script may run, and it acts on a page (a session-wide call
    // would replay on the wrong thing)
    for (const c of capabilities)
      if (c.replay) expect(['pages', 'navigation', 'actions', 'dialogs'], c.name).toContain(c.group);
    // what types into its target has its text field named, so a secret is never logged
    for (const name of ['browser_fill', 'browser_type'])
      expect(capabilities.find((c) => c.name === name)?.replay, name).toMatchObject({
        textInput: expect.any(String),
      });
  });
});
