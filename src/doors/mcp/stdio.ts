/** `brow mcp`: one MCP client on stdin/stdout. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Runtime } from '../../runtime/runtime.js';
import { createMcpServer } from './server.js';

/** Serve MCP on stdio until the client closes stdin; resolves then. stdout carries only MCP. */
export async function runMcpStdio(runtime: Runtime): Promise<void> {
  const server = createMcpServer(runtime, { owner: null });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
