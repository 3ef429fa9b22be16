/**
 * Configuration on the bus: with a configuration worker on the engine (here a stand-in built on the
 * real iii-sdk, speaking the configuration worker's function and trigger shapes), brow registers its
 * schema under id "browser", applies the stored value, and applies configuration:updated live.
 */
import { TriggerAction, type IIIClient } from 'iii-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBusWorker, type BusWorker } from '../../src/doors/bus/worker.js';
import { BrowRuntime } from '../../src/runtime/runtime.js';
import { startEngine, type EngineHarness } from './engine-harness.js';
import { agentClient, FAST_RECONNECT, until } from './setup.js';

let engine: EngineHarness;
let store: IIIClient;
const entries = new Map<string, { schema: any; value: unknown }>();
const watchers = new Map<string, { function_id: string; config: any }>();

/** What configuration::set does: store, then fire configuration:updated at every matching binding. */
function set(id: string, value: unknown): void {
  const e = entries.get(id)!;
  const old = e.value;
  e.value = value;
  for (const w of watchers.values()) {
    if (w.config?.configuration_id && w.config.configuration_id !== id) continue;
    const payload = {
      type: 'configuration',
      event_type: 'configuration:updated',
      id,
      name: id,
      description: '',
      schema: e.schema,
      old_value: old,
      new_value: value,
    };
    void store.trigger({ function_id: w.function_id, payload, action: TriggerAction.Void() });
  }
}

beforeAll(async () => {
  engine = await startEngine();
  store = agentClient(engine.url, 'configuration');
  store.registerFunction('configuration::register', async (p: { id: string; schema: unknown }) => {
    const prev = entries.get(p.id);
    entries.set(p.id, { schema: p.schema, value: prev?.value ?? null });
    return { id: p.id };
  });
  store.registerFunction('configuration::get', async (p: { id: string }) => ({
    id: p.id,
    value: entries.get(p.id)?.value ?? null,
  }));
  store.registerTriggerType(
    { id: 'configuration', description: 'configuration changes' },
    {
      async registerTrigger({ id, function_id, config }) {
        watchers.set(id, { function_id, config });
      },
      async unregisterTrigger({ id }) {
        watchers.delete(id);
      },
    },
  );
  await engine.waitFor(() => engine.functionIds().includes('configuration::get'), 'the configuration worker');
});
afterAll(async () => {
  await store?.shutdown();
  await engine?.close();
});

describe('configuration', () => {
  let runtime: BrowRuntime;
  let worker: BusWorker;
  const logs: string[] = [];

  afterAll(async () => {
    await worker?.close();
    await runtime?.close();
  });

  it('registers the schema under "browser", applies the stored value, and applies updates live', async () => {
    entries.set('browser', { schema: null, value: { max_sessions: 2 } });
    runtime = new BrowRuntime();
    worker = runBusWorker(runtime, {
      engine: engine.url,
      reconnection: FAST_RECONNECT,
      log: (m) => logs.push(m),
    });
    expect(await worker.configured).toBe(true);
    const schema = entries.get('browser')!.schema;
    expect(schema.type).toBe('object');
    expect(schema.properties.max_sessions).toMatchObject({ type: 'integer', default: 4 });
    expect(schema.properties.allow_attach).toMatchObject({ type: 'boolean', default: false });
    expect(runtime.config.max_sessions).toBe(2);
    expect(runtime.config.console_buffer).toBe(500);

    await until(() => watchers.size === 1, 'the configuration:updated binding');
    expect([...watchers.values()][0]).toEqual({
      function_id: 'browser::on-config-change',
      config: { configuration_id: 'browser', event_types: ['configuration:updated'] },
    });
    set('browser', { max_sessions: 3, allowed_schemes: ['http', 'https', 'file'] });
    await until(() => runtime.config.max_sessions === 3, 'the live update');
    expect(runtime.config.allowed_schemes).toEqual(['http', 'https', 'file']);
    // the doctor (every door's view of the config) sees it too
    const d = await runtime.invoke('browser_doctor', {});
    expect(d.data).toMatchObject({ max_sessions: 3 });
  });

  it('refuses a bad value whole and keeps the configuration; skips an unknown key and applies the rest', async () => {
    set('browser', { max_sessions: 'many' });
    await until(() => logs.some((l) => l.includes('refused')), 'the refusal');
    expect(logs.find((l) => l.includes('max_sessions') && l.includes('refused'))).toMatch(/max_sessions: /);
    expect(runtime.config.max_sessions).toBe(3);
    set('browser', { max_sesions: 8, console_buffer: 600 });
    await until(() => logs.some((l) => l.includes('max_sesions')), 'the unknown key reported');
    expect(logs.find((l) => l.includes('max_sesions'))).toMatch(/unknown key\(s\) skipped: "max_sesions"/);
    expect(runtime.config.console_buffer).toBe(600);
  });

  it("accepts a value written to seed 002's schema whole, user_data_dir included", async () => {
    const seed = {
      executable: '',
      user_data_dir: '/tmp/brow-profile',
      headless: true,
      max_sessions: 5,
      console_buffer: 500,
      network_buffer: 500,
      viewport: { width: 1280, height: 800 },
      default_timeout_ms: 30000,
      max_timeout_ms: 120000,
      idle_stop_ms: 300000,
      screenshot_quality: 60,
      allowed_schemes: ['http', 'https', 'file'],
      max_snapshot_nodes: 2000,
      allow_attach: false,
    };
    // the schema registered under "browser" lists every seed key
    const schema = entries.get('browser')!.schema;
    for (const k of Object.keys(seed)) expect(schema.properties).toHaveProperty(k);
    set('browser', seed);
    await until(() => runtime.config.max_sessions === 5, 'the seed value applied');
    expect(runtime.config).toMatchObject({
      screenshot_quality: 60,
      max_snapshot_nodes: 2000,
      user_data_dir: '/tmp/brow-profile',
    });
    expect(logs.at(-1)).not.toMatch(/not applied/);
    // browser::on-config-change answers with the report
    const answer = await store.trigger<unknown, any>({
      function_id: 'browser::on-config-change',
      payload: {
        id: 'browser',
        event_type: 'configuration:updated',
        new_value: { ...seed, origin_policies: {} },
      },
    });
    expect(answer).toMatchObject({
      applied: true,
      unknown: ['origin_policies'],
      not_applied: {},
    });
    expect(answer.keys).toEqual(
      expect.arrayContaining(['screenshot_quality', 'max_snapshot_nodes', 'user_data_dir']),
    );
    runtime.updateConfig({ user_data_dir: '' });
  });

  it('keeps its local configuration when the engine has no configuration worker', async () => {
    const bare = await startEngine();
    const rt = new BrowRuntime({ max_sessions: 5 });
    const lines: string[] = [];
    const w = runBusWorker(rt, { engine: bare.url, reconnection: FAST_RECONNECT, log: (m) => lines.push(m) });
    try {
      expect(await w.configured).toBe(false);
      expect(lines.join('\n')).toMatch(/no configuration worker on the engine: using local configuration/);
      expect(rt.config.max_sessions).toBe(5);
      const agent = agentClient(bare.url);
      await bare.waitFor(() => bare.functionIds().includes('browser::doctor'), 'the functions');
      expect(
        (await agent.trigger<unknown, any>({ function_id: 'browser::doctor', payload: {} })).max_sessions,
      ).toBe(5);
      await agent.shutdown();
    } finally {
      await w.close();
      await rt.close();
      await bare.close();
    }
  });
});
