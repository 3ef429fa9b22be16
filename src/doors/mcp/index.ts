/** The MCP door: stdio (`brow mcp`) and streamable HTTP (`/mcp` on `brow serve`), both from the registry. */
export { CAPABILITY_GROUPS, parseCaps, restrictRuntime } from './caps.js';
export { MCP_CLI_OPTIONS } from './cli.js';
export { mcpHttpRoute, type McpHttpOptions, type McpHttpRoute } from './http.js';
export { createMcpServer, type McpServerOptions } from './server.js';
export { runMcpStdio } from './stdio.js';
export { inputJsonSchema, outputJsonSchema, toMcpResult, toMcpTool } from './tools.js';
export { compactData, type StructuredMode } from '../../runtime/compact.js';
