/**
 * Every number a caller can send is bounded: a finite minimum and maximum in its schema, so a
 * careless value (1e39 pixels, a week-long timeout) is refused as invalid_request before it can
 * wedge a page. Walks every capability's input schema as the doors publish it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capabilities } from '../../src/capabilities/registry.js';

type Schema = Record<string, unknown>;

/** Paths of numeric fields that lack a minimum or a maximum. */
function unbounded(schema: Schema, path: string, out: string[]): void {
  const type = schema.type;
  if (type === 'number' || type === 'integer') {
    const min = schema.minimum ?? schema.exclusiveMinimum;
    const max = schema.maximum ?? schema.exclusiveMaximum;
    // an integer's safe range is a bound (zod publishes it for .int()); a plain number needs its own
    const finite = (v: unknown) => typeof v === 'number' && Math.abs(v) <= Number.MAX_SAFE_INTEGER;
    if (!finite(min) || !finite(max)) out.push(path);
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, sub] of Object.entries(value as Record<string, Schema>))
        unbounded(sub, `${path}.${name}`, out);
    } else if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object') {
      unbounded(value as Schema, `${path}[]`, out);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      for (const sub of value) unbounded(sub as Schema, path, out);
    }
  }
}

/** Fields a seed defines as clamped rather than refused. */
const CLAMPED = new Set([
  // seed 000: the browser tool's timeout is clamped to 1..30 seconds, whatever is sent
  'browser.timeout',
]);

describe('numeric inputs are bounded', () => {
  it('every number in every input schema has a finite minimum and maximum', () => {
    const missing: string[] = [];
    for (const cap of capabilities) {
      unbounded(
        z.toJSONSchema(cap.input, { io: 'input', unrepresentable: 'any' }) as Schema,
        cap.name,
        missing,
      );
    }
    expect(missing.filter((p) => !CLAMPED.has(p))).toEqual([]);
  });
});
