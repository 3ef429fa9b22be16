/** Shared test setup: a runtime on real Chromium, the fixture server, and typed call helpers. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { gatesOf, type AnyCapability, type Gates } from '../src/capabilities/define.js';
import { BrowRuntime } from '../src/runtime/runtime.js';
import type { Outcome } from '../src/runtime/outcome.js';
import type { BrowConfigInput } from '../src/core/config.js';
import { startFixtureServer, type FixtureServer } from './fixtures/server.js';

/** Build the in-page script once if a test run starts from a clean checkout. */
export function ensureInjectedBuilt(): void {
  if (!existsSync(new URL('../dist/injected/page-script.js', import.meta.url))) {
    execFileSync(process.execPath, ['scripts/build.mjs', '--injected-only'], { stdio: 'inherit' });
  }
}

export interface Harness {
  rt: BrowRuntime;
  server: FixtureServer;
  /** Invoke and return the outcome as is. */
  call(name: string, input?: Record<string, unknown>): Promise<Outcome>;
  /** Invoke and expect ok; returns data (throws with the content otherwise). */
  ok<T = any>(name: string, input?: Record<string, unknown>): Promise<T & { __content: string }>;
  /** Invoke and expect an error; returns its code. */
  err(name: string, input?: Record<string, unknown>): Promise<{ code: string; content: string; data: any }>;
  /** Open a fixture page; returns its page_id. */
  open(path: string, extra?: Record<string, unknown>): Promise<string>;
  /** Snapshot refs of a page (interactive scope unless given). */
  refs(pageId: string, scope?: string): Promise<any[]>;
  close(): Promise<void>;
}

export async function harness(config: BrowConfigInput = {}): Promise<Harness> {
  ensureInjectedBuilt();
  const server = await startFixtureServer();
  const rt = new BrowRuntime(config);
  const call = (name: string, input: Record<string, unknown> = {}) => rt.invoke(name, input);
  const ok = async (name: string, input: Record<string, unknown> = {}) => {
    const o = await call(name, input);
    if (!o.ok) throw new Error(`${name} failed: ${o.content}`);
    return Object.assign(o.data, { __content: o.content }) as any;
  };
  const err = async (name: string, input: Record<string, unknown> = {}) => {
    const o = await call(name, input);
    if (o.ok) throw new Error(`${name} unexpectedly succeeded: ${o.content}`);
    return { code: o.data.error_code, content: o.content, data: o.data };
  };
  return {
    rt,
    server,
    call,
    ok,
    err,
    open: async (path, extra = {}) =>
      (await ok('browser_open_page', { url: server.url(path), ...extra })).page_id,
    refs: async (pageId, scope = 'interactive') =>
      (await ok('browser_list_elements', { page_id: pageId, scope, max_chars: 2_000_000 })).snapshot.refs,
    close: async () => {
      await rt.close();
      await server.close();
    },
  };
}

/** The first ref record whose role and name match. */
export function refOf(refs: any[], role: string, name: string | RegExp): string {
  const hit = refs.find(
    (r) =>
      r.role === role &&
      (typeof name === 'string' ? r.accessible_name === name : name.test(r.accessible_name)),
  );
  if (!hit)
    throw new Error(
      `no ${role} "${name}" in ${refs.map((r) => `${r.role}:${r.accessible_name}`).join(', ')}`,
    );
  return hit.ref;
}

/**
 * Inputs that pass a capability's schema, made from its JSON schema: the required fields with a
 * plain value each (`ref` for refs), the page or session named, and one input per value of an
 * `action` enum (a capability's gates may depend on it). For tests that run every capability.
 */
export function sampleInputs(
  cap: AnyCapability,
  where: { page_id: string; session_id: string; ref: string },
): Record<string, unknown>[] {
  const schema = z.toJSONSchema(cap.input, { io: 'input' }) as any;
  const base: Record<string, unknown> = {};
  if ('page_id' in cap.input.shape) base.page_id = where.page_id;
  else if ('session_id' in cap.input.shape) base.session_id = where.session_id;
  for (const key of schema.required ?? []) base[key] = sampleValue(key, schema.properties[key], where.ref);
  if (cap.name === 'browser_scroll') base.delta_y = 100;
  if (cap.name === 'browser_drag') base.offset_x = 40; // a drag names one kind of target
  if (cap.name === 'browser_fill_form') base.fields = [{ ref: where.ref, value: 'x' }];
  if (cap.name === 'browser_find') base.role = 'button'; // it needs one of role, name, text
  const actions: unknown[] = schema.properties?.action?.enum ?? [];
  return actions.length > 1 ? actions.map((action) => ({ ...base, action })) : [base];
}

function sampleValue(key: string, prop: any, ref: string): unknown {
  if (prop?.anyOf) return sampleValue(key, prop.anyOf[0], ref);
  if (prop?.enum) return prop.enum[0];
  switch (prop?.type) {
    case 'number':
    case 'integer':
      return Math.max(1, prop.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return [sampleValue(key, prop.items, ref)];
    case 'object':
      return {};
    default:
      if (/url/.test(key)) return 'http://127.0.0.1/';
      if (/ref/.test(key)) return ref;
      if (key === 'key') return 'Enter';
      if (/path/.test(key)) return 'package.json';
      return 'x';
  }
}

/** A capability's gates for one input (see src/capabilities/define.ts). */
export function gatesFor(cap: AnyCapability, input: Record<string, unknown>): Gates {
  const parsed = cap.input.safeParse(input);
  if (!parsed.success)
    throw new Error(`sample input for ${cap.name} does not parse: ${parsed.error.message}`);
  return gatesOf(cap, parsed.data);
}

/**
 * Call every capability whose gates for a sample input include `gate`, on the page `where` names;
 * returns each call's answer ('ok' or its error code), keyed by name (and action). `skip` leaves
 * capabilities out by name.
 */
export async function callGated(
  h: Harness,
  where: { page_id: string; session_id: string; ref: string },
  gate: keyof Gates,
  skip: (name: string) => boolean = () => false,
): Promise<Record<string, string>> {
  const answers: Record<string, string> = {};
  for (const cap of h.rt.capabilities) {
    if (skip(cap.name)) continue;
    for (const input of sampleInputs(cap, where)) {
      if (!gatesFor(cap, input)[gate]) continue;
      const o = await h.rt.invoke(cap.name, input);
      answers[`${cap.name}${input.action ? ` ${String(input.action)}` : ''}`] = o.ok
        ? 'ok'
        : String(o.data.error_code);
    }
  }
  return answers;
}
