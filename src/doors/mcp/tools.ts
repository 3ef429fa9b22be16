/** Capabilities as MCP tools, and outcomes as MCP tool results. Nothing here names a tool. */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AnyCapability, CapabilityGroup } from '../../capabilities/define.js';
import type { Outcome } from '../../runtime/runtime.js';

// Session bookkeeping stays inside brow; every other group touches web pages, an open world.
const CLOSED_WORLD: ReadonlySet<CapabilityGroup> = new Set<CapabilityGroup>(['sessions']);

/** The JSON Schema of a capability's input, as a client should fill it. */
export function inputJsonSchema(cap: AnyCapability): Tool['inputSchema'] {
  const { $schema: _drop, ...schema } = z.toJSONSchema(cap.input, { io: 'input' }) as Record<string, unknown>;
  return { ...schema, type: 'object' } as Tool['inputSchema'];
}

/** One capability as an MCP tool: name, title, description, JSON schema and annotations. */
export function toMcpTool(cap: AnyCapability): Tool {
  const a = cap.annotations;
  return {
    name: cap.name,
    title: cap.title,
    description: cap.description,
    inputSchema: inputJsonSchema(cap),
    annotations: {
      title: cap.title,
      readOnlyHint: a.readOnly,
      destructiveHint: a.destructive,
      idempotentHint: a.idempotent,
      openWorldHint: !CLOSED_WORLD.has(cap.group),
    },
  };
}

/**
 * An outcome as an MCP result: the model text, the data as structuredContent, images as
 * image content; a failure is `isError` with `[code] message` and the hint.
 */
export function toMcpResult(outcome: Outcome): CallToolResult {
  if (!outcome.ok) {
    const { error_code, message, hint } = outcome.data;
    return {
      isError: true,
      content: [{ type: 'text', text: `[${error_code}] ${message}\n${hint}` }],
      structuredContent: outcome.data,
    };
  }
  const images = (outcome.images ?? []).map((img) => ({
    type: 'image' as const,
    data: img.data,
    mimeType: img.mimeType,
  }));
  return {
    content: [{ type: 'text', text: outcome.content }, ...images],
    structuredContent: outcome.data,
  };
}
