/** Capabilities as MCP tools, and outcomes as MCP tool results. Nothing here names a tool. */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AnyCapability } from '../../capabilities/define.js';
import { compactSchema, structuredData, type StructuredMode } from '../../runtime/compact.js';
import type { Outcome } from '../../runtime/runtime.js';

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return { ...(dropDefaults(rest, io === 'output') as Record<string, unknown>), type: 'object' };
}

/** A description that only says the field's name again (`page_id`: "Page id", `url`: "URL"). */
function restatesName(key: string, prop: unknown): boolean {
  const d = (prop as { description?: unknown } | null)?.description;
  return typeof d === 'string' && d.toLowerCase() === key.replace(/_/g, ' ').toLowerCase();
}

/**
 * Leave out what JSON Schema says by default anyway: `additionalProperties: {}` (a loose object)
 * and the ±2^53−1 bounds zod gives every integer; every byte rides in every tools/list. An output
 * schema is open everywhere (a record may carry more than it describes), so there
 * `additionalProperties: false` goes too, and so does a description that only repeats its field's
 * name (`page_id` is in 25 of the default tools' output schemas).
 */
function dropDefaults(v: unknown, open: boolean): unknown {
  if (Array.isArray(v)) return v.map((x) => dropDefaults(x, open));
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (open && k === 'properties' && typeof x === 'object' && x !== null) {
      out[k] = Object.fromEntries(
        Object.entries(x).map(([name, prop]) => {
          if (!restatesName(name, prop)) return [name, dropDefaults(prop, open)];
          const { description: _same, ...rest } = prop as Record<string, unknown>;
          return [name, dropDefaults(rest, open)];
        }),
      );
      continue;
    }
    const extra =
      k === 'additionalProperties' &&
      ((typeof x === 'object' && x !== null && Object.keys(x).length === 0) || (open && x === false));
    const safeBound =
      (k === 'maximum' || k === 'minimum') && Math.abs(x as number) === Number.MAX_SAFE_INTEGER;
    if (!extra && !safeBound) out[k] = dropDefaults(x, open);
  }
  return out;
}

/** The JSON Schema of a capability's input, as a client should fill it. */
export function inputJsonSchema(cap: AnyCapability): Tool['inputSchema'] {
  return jsonSchema(cap.input, 'input') as Tool['inputSchema'];
}

/**
 * The JSON Schema of what the door sends as structuredContent in this mode (none for `off`). Its
 * top level has no description and lists no required fields: a failed call's structuredContent is `{error_code, message,
 * hint}`, and clients validate that against the same schema.
 */
export function outputJsonSchema(cap: AnyCapability, mode: StructuredMode): Tool['outputSchema'] {
  if (mode === 'off') return undefined;
  // the tool's description says what it answers: the schema's own top-level description would repeat it
  const {
    required: _r,
    description: _d,
    ...schema
  } = jsonSchema(mode === 'compact' ? compactSchema(cap.output) : cap.output, 'output');
  return schema as Tool['outputSchema'];
}

/**
 * One capability as an MCP tool: name, title, description, JSON schemas and annotations. Hints
 * at MCP's defaults are left out (idempotentHint false, openWorldHint true); readOnlyHint and
 * destructiveHint are always given.
 */
export function toMcpTool(cap: AnyCapability, mode: StructuredMode = 'compact'): Tool {
  const a = cap.annotations;
  const outputSchema = outputJsonSchema(cap, mode);
  return {
    name: cap.name,
    title: cap.title,
    description: cap.description,
    inputSchema: inputJsonSchema(cap),
    ...(outputSchema ? { outputSchema } : {}),
    annotations: {
      readOnlyHint: a.readOnly,
      destructiveHint: !a.readOnly && a.destructive,
      ...(a.idempotent ? { idempotentHint: true } : {}),
      ...(cap.world === 'closed' ? { openWorldHint: false } : {}),
    },
  };
}

/**
 * An outcome as an MCP result: the model text, the data as structuredContent (compact, full or
 * none, by mode), images as image content; a failure is `isError` with `[code] message` and the
 * hint, and its error data as structuredContent unless the mode is `off`.
 */
export function toMcpResult(outcome: Outcome, mode: StructuredMode = 'compact'): CallToolResult {
  if (!outcome.ok) {
    const { error_code, message, hint } = outcome.data;
    return {
      isError: true,
      content: [{ type: 'text', text: `[${error_code}] ${message}\n${hint}` }],
      ...(mode === 'off' ? {} : { structuredContent: outcome.data }),
    };
  }
  const images = (outcome.images ?? []).map((img) => ({
    type: 'image' as const,
    data: img.data,
    mimeType: img.mimeType,
  }));
  const structured = structuredData(outcome.data, mode);
  return {
    content: [{ type: 'text', text: outcome.content }, ...images],
    ...(structured ? { structuredContent: structured } : {}),
  };
}
