/**
 * The agent package's config file, hashfield-agent.json (the server writes the same shape into the package,
 * with an empty secret): what the installer's "change file" step shows, with the farm's secret filled in.
 */
export const CONFIG_FILE_NAME = 'hashfield-agent.json';
export const CONFIG_FILE_PATH = `/opt/hashfield-agent/${CONFIG_FILE_NAME}`;
export const SERVICE_NAME = 'hashfield-agent';
export const RESTART_COMMAND = `sudo systemctl restart ${SERVICE_NAME}`;

export function configFileText(input: { server: string; agentKey: string; secret: string }): string {
  return `${JSON.stringify({ server: input.server.trim(), agentKey: input.agentKey, secret: input.secret, dataDir: './agent-data' }, null, 2)}\n`;
}

/** The server address must be an http(s) URL without a path (the agent adds /api/…). */
export function isServerUrl(v: string): boolean {
  try {
    const u = new URL(v.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && (u.pathname === '/' || u.pathname === '') && !u.search && !u.hash;
  } catch {
    return false;
  }
}
