/**
 * brow's configuration on the bus: when the engine offers the configuration worker, register the
 * schema under id `browser`, apply the stored value, and apply `configuration:updated` live.
 */
import type { IIIClient } from 'iii-sdk';
import { z } from 'zod';
import { configSchema, type BrowRuntime } from '../../runtime/runtime.js';

export const CONFIG_ID = process.env.III_CONFIG_NAME || 'browser';
export const CONFIG_FUNCTION = 'browser::on-config-change';

const isMissing = (e: unknown): boolean => (e as { code?: string })?.code === 'function_not_found';

/**
 * Seed 002 keys brow accepts but cannot apply, and why: none today. (screenshot_quality,
 * max_snapshot_nodes and user_data_dir are brow configuration keys of the same name and meaning,
 * so they are applied like the rest.)
 */
export const NOT_APPLIED: Record<string, string> = {};

/** The schema registered under `browser`: brow's configuration, which holds every seed 002 key. */
export const busConfigSchema = configSchema;

/** What applying a stored value did: the keys applied, accepted but not applied (why), unknown (skipped). */
export interface ConfigReport {
  applied: boolean;
  keys: string[];
  not_applied: Record<string, string>;
  unknown: string[];
  error?: string;
}

/**
 * Apply a stored configuration value. An unknown key is reported and skipped; a known key with a bad
 * value refuses the value whole (nothing changes); a seed key brow cannot apply is reported.
 */
export function applyConfig(runtime: BrowRuntime, value: unknown, log: (m: string) => void): ConfigReport {
  const report: ConfigReport = { applied: false, keys: [], not_applied: {}, unknown: [] };
  if (value === null || value === undefined) return report;
  if (typeof value !== 'object' || Array.isArray(value)) {
    report.error = 'the value is not an object';
    log(`configuration "${CONFIG_ID}" refused: ${report.error}`);
    return report;
  }
  const known = new Set(Object.keys(busConfigSchema.shape));
  const take: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!known.has(k)) report.unknown.push(k);
    else if (k in NOT_APPLIED) {
      if (v !== '' && v !== undefined && v !== null) report.not_applied[k] = NOT_APPLIED[k]!;
    } else take[k] = v;
  }
  try {
    busConfigSchema.partial().parse({ ...take, ...pick(value, Object.keys(NOT_APPLIED)) });
    const partial = configSchema.partial().parse(take);
    runtime.updateConfig(partial);
    report.applied = true;
    report.keys = Object.keys(take);
  } catch (e) {
    report.error =
      e instanceof z.ZodError
        ? e.issues.map((i) => `${i.path.join('.') || i.code}: ${i.message}`).join('; ')
        : String(e);
  }
  const notes = [
    ...Object.keys(report.not_applied).map((k) => `${k} accepted but not applied: ${report.not_applied[k]}`),
    ...(report.unknown.length > 0
      ? [`unknown key(s) skipped: ${report.unknown.map((k) => `"${k}"`).join(', ')}`]
      : []),
  ];
  log(
    report.applied
      ? `configuration "${CONFIG_ID}" applied (${report.keys.join(', ') || 'no keys'})${notes.length ? `; ${notes.join('; ')}` : ''}`
      : `configuration "${CONFIG_ID}" refused: ${report.error}${notes.length ? `; ${notes.join('; ')}` : ''}`,
  );
  return report;
}

const pick = (o: object, keys: string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([k]) => keys.includes(k)));

/**
 * Register the schema and bind updates. Returns false when no configuration worker answers
 * (brow then keeps its local configuration). While the engine is unreachable (TIMEOUT) it tries
 * again, every 5 s, until `signal` aborts.
 */
export async function syncConfiguration(
  client: IIIClient,
  runtime: BrowRuntime,
  log: (m: string) => void,
  signal?: AbortSignal,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.trigger({
        function_id: 'configuration::register',
        payload: {
          id: CONFIG_ID,
          name: 'browser',
          description: 'brow browser worker: sessions, timeouts, buffers, allowed schemes, attach.',
          schema: z.toJSONSchema(busConfigSchema, { io: 'input' }),
        },
        timeoutMs: 10_000,
      });
      break;
    } catch (e) {
      const code = (e as { code?: string })?.code;
      if (code === 'TIMEOUT' && !signal?.aborted) {
        if (attempt === 1)
          log('configuration::register: no answer yet (engine unreachable?); trying again every 5 s');
        await new Promise((r) => setTimeout(r, 5000).unref());
        if (!signal?.aborted) continue;
      }
      log(
        isMissing(e)
          ? 'no configuration worker on the engine: using local configuration'
          : `configuration::register failed: ${String(e)}`,
      );
      return false;
    }
  }
  client.registerFunction(
    CONFIG_FUNCTION,
    async (event: { id?: string; event_type?: string; new_value?: unknown }) => {
      if (event?.id !== CONFIG_ID || event.event_type !== 'configuration:updated') return { applied: false };
      return applyConfig(runtime, event.new_value, log);
    },
    { description: 'Applies configuration:updated for the browser configuration live.' },
  );
  client.registerTrigger({
    type: 'configuration',
    function_id: CONFIG_FUNCTION,
    config: { configuration_id: CONFIG_ID, event_types: ['configuration:updated'] },
  });
  try {
    const got = await client.trigger<unknown, { value?: unknown }>({
      function_id: 'configuration::get',
      payload: { id: CONFIG_ID },
      timeoutMs: 10_000,
    });
    applyConfig(runtime, got?.value, log);
  } catch (e) {
    log(`configuration::get failed: ${String(e)}`);
  }
  return true;
}
