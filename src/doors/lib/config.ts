/**
 * Configuration loading for the CLI and the library: defaults < brow.config.json < BROW_* < flags.
 * The doors may not reach into core/ (eslint); runtime/ does not re-export the loader yet, so this
 * one module bridges it, pure data with no browser in it. Drop the bridge once runtime/ exports it.
 */
/* eslint-disable no-restricted-imports */
export { loadConfig, type ConfigSource, type LoadedConfig } from '../../core/config-load.js';
export { configSchema, type BrowConfig, type BrowConfigInput } from '../../core/config.js';
/* eslint-enable no-restricted-imports */
