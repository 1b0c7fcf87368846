/**
 * The agent's command-line options (src/agent/main.ts parses them with node:util parseArgs, strictly). Shared because
 * the packaged agent's launcher (src/server/domains/agent-package/package-launcher.ts) writes them and its tests read
 * them back with this very table.
 */
export const AGENT_CLI_OPTIONS = {
  server: { type: 'string' },
  key: { type: 'string' },
  secret: { type: 'string' },
  'data-dir': { type: 'string' },
  config: { type: 'string' },
  'detail-every': { type: 'string' },
  help: { type: 'boolean' },
} as const;
