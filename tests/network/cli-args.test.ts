/** How an agent writes these tools on the command line (parsed from the registry, no daemon). */
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/doors/cli/argv.js';
import { capabilityCommands } from '../../src/doors/cli/commands.js';

const parse = (command: string, ...argv: string[]) =>
  parseArgs(command, capabilityCommands().get(command)!.fields, argv).input;

describe('the CLI commands', () => {
  it('brow route PATTERN ACTION with flags; brow unroute [PATTERN]; brow emulate [DEVICE]', () => {
    expect(
      parse(
        'route',
        '**/api/*',
        'fulfill',
        '--status',
        '201',
        '--body',
        '{"ok":1}',
        '--headers',
        '{"x-a":"1"}',
      ),
    ).toEqual({
      pattern: '**/api/*',
      action: 'fulfill',
      status: 201,
      body: '{"ok":1}',
      headers: { 'x-a': '1' },
    });
    expect(parse('unroute', '**/api/*')).toEqual({ pattern: '**/api/*' });
    expect(
      parse('emulate', 'iPhone 15 Pro', '--timezone', 'Asia/Tokyo', '--viewport', '{"width":500}'),
    ).toEqual({
      device: 'iPhone 15 Pro',
      timezone: 'Asia/Tokyo',
      viewport: { width: 500 },
    });
    expect(
      parse('set-network', '--offline', '--blocked-origins', 'a.com', '--blocked-origins', 'b.com'),
    ).toMatchObject({
      offline: true,
      blocked_origins: ['a.com', 'b.com'],
    });
  });
});
