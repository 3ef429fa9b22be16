/** Configuration loading for the CLI and the library (see runtime/config.ts). */
import { loadConfig as loadConfigCore } from '../../runtime/config.js';
import { errorOutcome } from '../../runtime/invoke.js';
import { BrowError } from './brow.js';

export {
  configSchema,
  type BrowConfig,
  type BrowConfigInput,
  type ConfigSource,
  type LoadedConfig,
} from '../../runtime/config.js';

/**
 * Load brow's configuration as the CLI does (defaults < file < BROW_* < flags). A failure throws the
 * library's `BrowError` with code `invalid_config`, the file in `data.file` and a hint.
 */
export function loadConfig(...args: Parameters<typeof loadConfigCore>): ReturnType<typeof loadConfigCore> {
  try {
    return loadConfigCore(...args);
  } catch (e) {
    throw new BrowError(errorOutcome(e));
  }
}
