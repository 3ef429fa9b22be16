/** The options `brow mcp` and `brow serve` share for the MCP door (the CLI spreads them into its parseArgs). */
export const MCP_CLI_OPTIONS = {
  /** Capability groups on/off, e.g. `-scripts,-styles` or `sessions,pages,snapshot,actions`. */
  caps: { type: 'string' },
  /** HTTP only: every MCP client drives the same browser sessions. */
  'shared-sessions': { type: 'boolean', default: false },
} as const;
