import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config-load.js';

describe('configuration', () => {
  it('has seed 002 defaults', () => {
    const { config, sources } = loadConfig({ env: {} });
    expect(config).toMatchObject({
      max_sessions: 4,
      console_buffer: 500,
      network_buffer: 500,
      viewport: { width: 1280, height: 800 },
      default_timeout_ms: 30000,
      max_timeout_ms: 120000,
      idle_stop_ms: 300000,
      allowed_schemes: ['http', 'https'],
      allow_attach: false,
    });
    expect(sources.max_sessions).toBe('default');
  });

  it('layers file < env < flags and says where each value came from', () => {
    const dir = mkdtempSync(join(tmpdir(), 'brow-cfg-'));
    const file = join(dir, 'brow.config.json');
    writeFileSync(file, JSON.stringify({ max_sessions: 6, allow_attach: true, idle_stop_ms: 60000 }));
    const { config, sources } = loadConfig({
      file,
      env: { BROW_MAX_SESSIONS: '8', BROW_ALLOWED_SCHEMES: 'http,https,file' },
      flags: { idle_stop_ms: 5000 },
    });
    expect(config.max_sessions).toBe(8);
    expect(sources.max_sessions).toBe('env');
    expect(config.allow_attach).toBe(true);
    expect(sources.allow_attach).toBe('file');
    expect(config.idle_stop_ms).toBe(5000);
    expect(sources.idle_stop_ms).toBe('flag');
    expect(config.allowed_schemes).toEqual(['http', 'https', 'file']);
    rmSync(dir, { recursive: true, force: true });
  });

  it('names a bad key and where it came from', () => {
    const dir = mkdtempSync(join(tmpdir(), 'brow-cfg-'));
    const file = join(dir, 'brow.config.json');
    writeFileSync(file, JSON.stringify({ max_sesions: 6 }));
    expect(() => loadConfig({ file, env: {} })).toThrow(
      /unknown key\(s\) "max_sesions".*brow\.config\.json|brow\.config\.json.*"max_sesions"/,
    );
    expect(() => loadConfig({ env: { BROW_MAX_SESSIONS: '-1' } })).toThrow(/environment.*max_sessions/);
    expect(() => loadConfig({ file: join(dir, 'missing.json'), env: {} })).toThrow(/does not exist/);
    rmSync(dir, { recursive: true, force: true });
  });
});
