import type { SimMiner } from './sim-miner';

/** Pieces of the CGMiner RPC envelope shared by every cgminer-family firmware (miner-protocols.md §1). */

export type JsonObject = Record<string, unknown>;

export interface RpcRequest {
  command: string;
  parameter: string | undefined;
  /** request was JSON (reply JSON) vs plain `cmd|param` (reply text) */
  json: boolean;
  /** the parsed JSON request, or null in text mode */
  body: JsonObject | null;
}

/** Outcome of one 4028 request. `after` runs once the reply is flushed (reboot etc.). */
export type RpcOutcome =
  | {
      kind: 'reply';
      text: string;
      after?: () => void;
      json?: boolean;
      /** Keep the connection open after the reply and take a 4-byte LE length + binary image (Whatsminer firmware upload). */
      upload?: (image: Buffer) => { text: string; after?: () => void };
    }
  | { kind: 'reset' };

/** Every command cgminer's api.c knows; anything else is `Invalid command` (14). */
export const CGMINER_COMMANDS = new Set([
  'version', 'config', 'summary', 'pools', 'devs', 'edevs', 'pga', 'pgacount', 'switchpool', 'addpool', 'poolpriority',
  'poolquota', 'enablepool', 'disablepool', 'removepool', 'save', 'quit', 'privileged', 'notify', 'devdetails', 'restart',
  'stats', 'estats', 'check', 'failover-only', 'coin', 'debug', 'setconfig', 'usbstats', 'pgaset', 'zero', 'hotplug',
  'asc', 'ascenable', 'ascdisable', 'ascidentify', 'ascset', 'asccount', 'lcd', 'lockstats',
]);

/** Read commands that carry no parameter and may be joined with `+`. */
export const JOINABLE = new Set([
  'version', 'config', 'summary', 'pools', 'devs', 'edevs', 'pgacount', 'notify', 'devdetails', 'stats', 'estats',
  'coin', 'usbstats', 'asccount', 'lcd', 'fans', 'temps', 'tempctrl', 'tunerstatus',
]);

export function whenSec(now: number): number {
  return Math.floor(now / 1000);
}

export function statusArray(letter: 'S' | 'I' | 'W' | 'E' | 'F', when: number, code: number, msg: string, description: string): JsonObject[] {
  return [{ STATUS: letter, When: when, Code: code, Msg: msg, Description: description }];
}

export function errorReply(when: number, code: number, msg: string, description: string): JsonObject {
  return { STATUS: statusArray('E', when, code, msg, description), id: 1 };
}

export function accessDenied(when: number, command: string, description: string): JsonObject {
  return errorReply(when, 45, `Access denied to '${command}' command`, description);
}

export function invalidCommand(when: number, description: string): JsonObject {
  return errorReply(when, 14, 'Invalid command', description);
}

/** Parse the raw bytes of a 4028 request. Returns null while the request is incomplete/unparseable. */
export function parseRpcRequest(raw: string): RpcRequest | { error: 'invalid-json' | 'missing-command' } | null {
  const text = raw.replace(/\0+$/, '').trim();
  if (text === '') return null;
  if (text.startsWith('{')) {
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch {
      return null;
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return { error: 'invalid-json' };
    const body = obj as JsonObject;
    const cmd = body.command ?? body.cmd;
    if (typeof cmd !== 'string') {
      if ('enc' in body) return { command: '__enc__', parameter: undefined, json: true, body };
      return { error: 'missing-command' };
    }
    const p = body.parameter;
    const parameter = p === undefined || p === null ? undefined : String(p);
    return { command: cmd.trim(), parameter, json: true, body };
  }
  const bar = text.indexOf('|');
  return bar < 0
    ? { command: text, parameter: undefined, json: false, body: null }
    : { command: text.slice(0, bar), parameter: text.slice(bar + 1), json: false, body: null };
}

function escapeText(v: string): string {
  return v.replace(/[\\|,=]/g, (c) => `\\${c}`);
}

function textValue(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(2);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return escapeText(JSON.stringify(v));
  return escapeText(String(v));
}

/** cgminer's text reply: `STATUS=S,When=…,Code=…,Msg=…,Description=…|SECTION,k=v,…|` (API ≥ 1.7 escaping). */
export function toTextReply(reply: JsonObject): string {
  const parts: string[] = [];
  for (const [section, value] of Object.entries(reply)) {
    if (section === 'id') continue;
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item !== 'object' || item === null) {
        parts.push(`${section}=${textValue(item)}`);
        continue;
      }
      const entries = Object.entries(item as JsonObject);
      const fields = entries.map(([k, v]) => `${k}=${textValue(v)}`).join(',');
      const firstKey = entries[0]?.[0];
      // sections whose items start with their own index key (POOL=0, ASC=0, STATUS=S) need no prefix
      const named = firstKey !== undefined && (firstKey === section || section.startsWith(firstKey));
      parts.push(named ? fields : `${section},${fields}`);
    }
  }
  return `${parts.join('|')}|`;
}

export interface CgFamilyHandler {
  description(m: SimMiner): string;
  /** Reply for one command (never a multi-command). */
  single(m: SimMiner, req: RpcRequest, now: number): { reply: JsonObject; after?: () => void };
}

/** Dispatch one request, including `+` multi-commands (§1.3), to a family's single-command handler. */
export function dispatchCgminer(h: CgFamilyHandler, m: SimMiner, req: RpcRequest, now: number): RpcOutcome {
  const when = whenSec(now);
  if (req.command.includes('+')) {
    const seen: string[] = [];
    for (const c of req.command.split('+')) {
      const name = c.trim();
      if (name && !seen.includes(name)) seen.push(name);
    }
    const out: JsonObject = {};
    for (const name of seen) {
      if (!JOINABLE.has(name)) {
        out[name] = [accessDenied(when, name, h.description(m))];
        continue;
      }
      out[name] = [h.single(m, { ...req, command: name, parameter: undefined }, now).reply];
    }
    out.id = 1;
    return { kind: 'reply', text: req.json ? JSON.stringify(out) : toTextReply(out), json: req.json };
  }
  const { reply, after } = h.single(m, req, now);
  const text = req.json ? JSON.stringify(reply) : toTextReply(reply);
  return after ? { kind: 'reply', text, after, json: req.json } : { kind: 'reply', text, json: req.json };
}

/** groupedChipString results per domain size: a fleet has a handful of distinct chip strings (all-'o' per model, a few faulty). */
const groupedChips = new Map<number, Map<string, string>>();

/** Antminer chip-status string: groups per voltage domain, each with a leading space (`" ooo ooo …"`). */
export function groupedChipString(chips: string, perDomain: number): string {
  if (!chips) return '';
  let memo = groupedChips.get(perDomain);
  if (!memo) groupedChips.set(perDomain, (memo = new Map()));
  const hit = memo.get(chips);
  if (hit !== undefined) return hit;
  let s = '';
  for (let i = 0; i < chips.length; i += perDomain) s += ` ${chips.slice(i, i + perDomain)}`;
  // bounded: a missing-chip fault yields one more string per model; never more than a few dozen in practice
  if (memo.size < 256) memo.set(chips, s);
  return s;
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** `H:MM:SS` duration string (stock `Last Share Time`). */
export function hms(sec: number): string {
  const s = Math.max(0, Math.floor(sec));
  const h = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  return `${h}:${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}`;
}

/** Host part of a stratum URL (`Stratum URL`). */
export function stratumHost(url: string): string {
  return url.replace(/^[a-z0-9+]+:\/\//i, '').replace(/:\d+.*$/, '');
}
