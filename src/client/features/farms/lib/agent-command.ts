/** The command that starts the farm's agent on its NUC (shown with a new or rotated secret). */
export function agentCommand(origin: string, agentKey: string, secret: string): string {
  return `npm run agent -- --server ${origin} --key ${agentKey} --secret ${secret}`;
}
