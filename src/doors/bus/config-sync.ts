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

/** Apply a stored configuration value; a bad one is refused with a log line and changes nothing. */
export function applyConfig(runtime: BrowRuntime, value: unknown, log: (m: string) => void): boolean {
  if (value === null || value === undefined) return false;
  try {
    const partial = configSchema.partial().parse(value);
    runtime.updateConfig(partial);
    log(`configuration "${CONFIG_ID}" applied (${Object.keys(partial).join(', ') || 'no keys'})`);
    return true;
  } catch (e) {
    const detail =
      e instanceof z.ZodError
        ? e.issues.map((i) => `${i.path.join('.') || i.code}: ${i.message}`).join('; ')
        : String(e);
    log(`configuration "${CONFIG_ID}" refused: ${detail}`);
    return false;
  }
}

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
          schema: z.toJSONSchema(configSchema, { io: 'input' }),
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
      return { applied: applyConfig(runtime, event.new_value, log) };
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
