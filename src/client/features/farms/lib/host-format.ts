/** Display helpers for what the agent reports about its host. */
export interface Duration {
  days: number;
  hours: number;
  minutes: number;
}

export function splitUptime(seconds: number): Duration {
  const s = Math.max(0, Math.floor(seconds));
  return { days: Math.floor(s / 86_400), hours: Math.floor((s % 86_400) / 3_600), minutes: Math.floor((s % 3_600) / 60) };
}

/** MB → GB with one decimal ("15.6"); null when not reported. */
export function mbToGb(mb: number | null): string | null {
  if (mb === null || !Number.isFinite(mb)) return null;
  return (mb / 1024).toFixed(1);
}

export function hostDetailHref(agentKey: string): string {
  return `/agents/hostInfo/detail?agentKey=${encodeURIComponent(agentKey)}`;
}
