/** Shared test setup: a runtime on real Chromium, the fixture server, and typed call helpers. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
