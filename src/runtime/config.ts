/** Configuration for the doors: defaults < brow.config.json < BROW_* < flags. Pure data, no browser. */
export { loadConfig, type ConfigSource, type LoadedConfig } from '../core/config-load.js';
export { configSchema, type BrowConfig, type BrowConfigInput } from '../core/config.js';
