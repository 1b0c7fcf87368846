/**
 * Sub-areas (sub-mining areas) and sub-IP segments of a farm (spec 1 §2.4 /setting/agent/subArea and
 * /setting/agent/subIp; spec 3 §5 "Tree: at most 5 levels. Delete child levels first. A leaf node must be
 * chosen", "Sub-mining area id must be at least 1", "IP segments: CIDR-like, one per line"; spec 3 §7
 * /api/minerv2/agentSubArea/list). Request schemas shared by the server routes and the client forms, and
 * the pure helpers behind them (segment parsing, overlap, tree levels). Messages are `errors:` keys.
 *
 * Model (decided where the spec is silent): a sub-area is a node of a per-farm tree (ids are integers ≥ 1);
 * IP segments (sub-IP) belong to leaf areas only and never overlap inside a farm; a miner is in the area
 * whose segment holds its IP (and, for filtering, in every ancestor of that area).
 */
import { z } from 'zod';
import { findMenuByKey } from '../menu-catalogue';
import { isIPv4 } from '../validation';
import { commaList } from './common';
import { ipv4ToNumber, numberToIpv4 } from './scan-ip';

const areaMenu = findMenuByKey('subAreas');
const ipMenu = findMenuByKey('subIp');
/** Catalogue entries subAreas (83000 / 83500) and subIp (83100 / 83600). */
export const SUB_AREA_PERMISSION = { view: areaMenu?.permission ?? 83_000, operate: areaMenu?.operation ?? 83_500 } as const;
export const SUB_IP_PERMISSION = { view: ipMenu?.permission ?? 83_100, operate: ipMenu?.operation ?? 83_600 } as const;

export const SUB_AREA_LIMITS = {
  /** Spec 3 §5: a tree has at most 5 levels. */
  maxLevels: 5,
  nameMax: 50,
  /** Areas of one farm. */
  maxAreasPerFarm: 2_000,
  /** Smallest CIDR prefix accepted for one segment (/16 = 65,536 addresses, as scan ranges). */
  minPrefix: 16,
  maxAddresses: 65_536,
  /** Non-blank lines of one segment entry. */
  maxLines: 500,
  remarkMax: 200,
} as const;

export interface SubArea {
  /** Integer id ≥ 1 (the "sub-mining area id" of the agent config). */
  id: number;
  parentId: number | null;
  name: string;
  /** 1 = top level … 5. */
  level: number;
  /** Names from the top level down to this area. */
  path: string[];
  childCount: number;
  segmentCount: number;
  /** Miners of the farm whose IP lies in a segment of this area or of its sub-areas. */
  minerCount: number;
}

export interface SubIpSegment {
  id: string;
  areaId: number;
  /** "Top / Row 3 / Rack 2". */
  areaPath: string;
  /** As entered: a.b.c.d/n, a single address or begin-end. */
  segment: string;
  ipBegin: string;
  ipEnd: string;
  amount: number;
  remark: string;
  minerCount: number;
  createdAt: string;
}

/** Integer id ≥ 1 (form bodies send strings). */
export const areaId = (message: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number(message).int(message).min(1, message));

const agentKey = z.string().trim().min(1, 'validation.agentKeyRequired').max(64);
const optionalAreaId = z.preprocess((v) => (v === '' || v === null || v === '0' || v === 0 ? undefined : v), z.coerce.number('validation.id').int('validation.id').min(1, 'validation.id').optional());
const areaName = z
  .string('validation.subAreaNameRequired')
  .trim()
  .min(1, 'validation.subAreaNameRequired')
  .max(SUB_AREA_LIMITS.nameMax, 'validation.subAreaNameMax');

/** Create (no id; parentId empty = top level) or rename (id). */
export const SaveSubAreaBody = z.object({ agentKey, id: optionalAreaId, parentId: optionalAreaId, name: areaName });
export type SaveSubAreaBody = z.infer<typeof SaveSubAreaBody>;

/** Move `id` under parentId (empty = top level). */
export const MoveSubAreaBody = z.object({ agentKey, id: areaId('validation.id'), parentId: optionalAreaId });
export const DeleteSubAreaBody = z.object({ agentKey, id: areaId('validation.id') });
export const SubAreaListQuery = z.object({ agentKey });

export const SubIpListQuery = z.object({
  agentKey,
  areaId: optionalAreaId,
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
});

export const SaveSubIpBody = z.object({
  agentKey,
  /** Edit one segment (then `segments` holds exactly one line). */
  id: z.preprocess((v) => (v === '' ? undefined : v), z.string().uuid('validation.id').optional()),
  areaId: areaId('validation.subAreaLeafRequired'),
  segments: z.string('validation.subIpRequired').max(200_000, 'validation.subIpTooMany'),
  remark: z.string().trim().max(SUB_AREA_LIMITS.remarkMax, 'validation.remarkMax').default(''),
});
export type SaveSubIpBody = z.infer<typeof SaveSubIpBody>;

export const DeleteSubIpBody = z.object({
  agentKey,
  ids: commaList.pipe(z.array(z.string().uuid('validation.id')).min(1, 'validation.subIpIds').max(1000, 'validation.subIpIds')),
});

export interface ParsedSegment {
  /** 1-based line of the entry text. */
  line: number;
  segment: string;
  begin: number;
  end: number;
}

export interface SegmentLineError {
  line: number;
  key: string;
  vars?: Record<string, string | number>;
}

/**
 * One segment: `a.b.c.d/n` (CIDR, n from 16 to 32; the address is aligned down to the network), a single
 * address, or `begin-end`. Answers the bounds or the problem's message key.
 */
export function parseSegment(text: string): { segment: string; begin: number; end: number } | { key: string } {
  const s = text.trim().replace(/\s+/g, '');
  const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(s);
  if (cidr) {
    const base = ipv4ToNumber(cidr[1]!);
    const prefix = Number(cidr[2]);
    if (base === null) return { key: 'validation.ipAddress' };
    if (prefix > 32) return { key: 'validation.subIpPrefix' };
    if (prefix < SUB_AREA_LIMITS.minPrefix) return { key: 'validation.ipRangeSize' };
    const size = 2 ** (32 - prefix);
    const begin = Math.floor(base / size) * size;
    return { segment: `${numberToIpv4(begin)}/${prefix}`, begin, end: begin + size - 1 };
  }
  const dash = s.indexOf('-');
  if (dash >= 0) {
    const a = s.slice(0, dash);
    const b = s.slice(dash + 1);
    const begin = ipv4ToNumber(a);
    const end = ipv4ToNumber(b);
    if (begin === null || end === null) return { key: 'validation.ipAddress' };
    if (end < begin) return { key: 'validation.ipOrder' };
    if (end - begin + 1 > SUB_AREA_LIMITS.maxAddresses) return { key: 'validation.ipRangeSize' };
    return { segment: `${a}-${b}`, begin, end };
  }
  if (!isIPv4(s)) return { key: 'validation.ipAddress' };
  const n = ipv4ToNumber(s)!;
  return { segment: s, begin: n, end: n };
}

/** The entry text, one segment per line: blank lines skipped, bad lines and lines overlapping an earlier line reported. */
export function parseSegmentLines(text: string): { segments: ParsedSegment[]; errors: SegmentLineError[] } {
  const segments: ParsedSegment[] = [];
  const errors: SegmentLineError[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  const filled = lines.filter((l) => l.trim() !== '').length;
  if (filled === 0) return { segments, errors: [{ line: 0, key: 'validation.subIpRequired' }] };
  if (filled > SUB_AREA_LIMITS.maxLines) return { segments, errors: [{ line: 0, key: 'validation.subIpTooMany' }] };
  lines.forEach((raw, i) => {
    if (raw.trim() === '') return;
    const line = i + 1;
    const p = parseSegment(raw);
    if ('key' in p) {
      errors.push({ line, key: p.key });
      return;
    }
    const other = segments.find((o) => o.begin <= p.end && p.begin <= o.end);
    if (other) errors.push({ line, key: 'validation.scanIpOverlapLine', vars: { other: other.line } });
    else segments.push({ line, ...p });
  });
  return { segments, errors };
}

/** Level of a new child of `parentLevel` (0 = top), or the refusal key when it would be a 6th level. */
export function childLevel(parentLevel: number): { level: number } | { key: string } {
  const level = parentLevel + 1;
  return level > SUB_AREA_LIMITS.maxLevels ? { key: 'validation.subAreaLevelLimit' } : { level };
}
