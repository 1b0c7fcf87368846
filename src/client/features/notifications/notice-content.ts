/**
 * Parsing of notice contents (spec 2 §3): domain-style notices (domain, agent_updated, pool_check) carry a
 * JSON list of {subId, ip, sn, customer, publishTime}; temp_humid_warning carries {agentKey, agentName,
 * illegalTemps, illegalHumids}; summary is JSON {agentName, agentKey, publishTime, count}. Anything that does
 * not parse is shown as the generic notice (title, content, publishTime).
 */
import type { Notification } from '@shared/schemas/notification';

export interface DomainRow {
  subId: string;
  ip: string;
  sn: string;
  customer: string;
  publishTime: string;
}

export interface EnvReading {
  deviceName: string;
  type: string;
  value: string;
  unit: string;
  time: string;
}

export interface NoticeSummary {
  agentName: string;
  agentKey: string;
  publishTime: string;
  count: number | null;
}

export type NoticeView =
  | { kind: 'devices'; type: 'domain' | 'agent_updated' | 'pool_check'; rows: DomainRow[]; summary: NoticeSummary | null }
  | { kind: 'tempHumid'; agentName: string; agentKey: string; temps: EnvReading[]; humids: EnvReading[]; summary: NoticeSummary | null }
  | { kind: 'generic' };

const str = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function parseJson(text: string | null | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function parseSummary(text: string | null | undefined): NoticeSummary | null {
  const v = parseJson(text);
  if (!isRecord(v)) return null;
  const count = Number(v.count);
  return { agentName: str(v.agentName), agentKey: str(v.agentKey), publishTime: str(v.publishTime), count: Number.isFinite(count) ? count : null };
}

function readings(v: unknown): EnvReading[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).map((r) => ({ deviceName: str(r.deviceName), type: str(r.type), value: str(r.value), unit: str(r.unit), time: str(r.time) }));
}

export function noticeView(n: Pick<Notification, 'type' | 'content' | 'summary'>): NoticeView {
  const content = parseJson(n.content);
  const summary = parseSummary(n.summary);
  if (n.type === 'domain' || n.type === 'agent_updated' || n.type === 'pool_check') {
    const list = Array.isArray(content) ? content : isRecord(content) && Array.isArray(content.list) ? content.list : null;
    if (!list) return { kind: 'generic' };
    const rows = list.filter(isRecord).map((r) => ({ subId: str(r.subId), ip: str(r.ip), sn: str(r.sn), customer: str(r.customer), publishTime: str(r.publishTime) }));
    return { kind: 'devices', type: n.type, rows, summary };
  }
  if (n.type === 'temp_humid_warning' && isRecord(content)) {
    return {
      kind: 'tempHumid',
      agentName: str(content.agentName),
      agentKey: str(content.agentKey),
      temps: readings(content.illegalTemps),
      humids: readings(content.illegalHumids),
      summary,
    };
  }
  return { kind: 'generic' };
}
