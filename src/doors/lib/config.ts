/** Configuration loading for the CLI and the library (see runtime/config.ts). */
export {
  configSchema,
  loadConfig,
  type BrowConfig,
  type BrowConfigInput,
  type ConfigSource,
  type LoadedConfig,
} from '../../runtime/config.js';
