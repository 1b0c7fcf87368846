/** The command that starts a farm's agent on its computer (same form as the farm dialog's). */
export function agentCommand(origin: string, agentKey: string, secret: string): string {
  return `npm run agent -- --server ${origin} --key ${agentKey} --secret ${secret}`;
}
