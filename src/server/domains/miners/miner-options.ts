/**
 * Miner dropdowns (spec 3 §7 "Dropdown lists", answered as [{ text, value }]): the fixed vocabularies in
 * the request's language (src/shared/miner-labels.ts), and the farm's own models, firmware and pool URLs.
 */
import { sql } from 'kysely';
import { formatHashrate } from '@shared/format/hashrate';
import { errorCodeOptionText, minerLabelOptions } from '@shared/miner-labels';
import type { Option } from '@shared/schemas/common';
import type { MinerOptionName } from '@shared/schemas/miner';
import type { Locale } from '@shared/validation';
import type { DB } from '../../db/kysely';
import { MAY_HAVE_ERROR_CODES, errorCodesSql } from './miner-sql';

/** Dropdowns whose values depend on the farm (need agentKey). */
export const FARM_OPTION_NAMES = ['model', 'firmwareVersion', 'poolUrl', 'errorCode'] as const satisfies readonly MinerOptionName[];
export type FarmOptionName = (typeof FARM_OPTION_NAMES)[number];
export type FixedOptionName = Exclude<MinerOptionName, FarmOptionName>;

export function fixedMinerOptions(locale: Locale, name: FixedOptionName): Option[] {
  return minerLabelOptions(locale, name);
}

/** A firmware build date YYYYMMDD as the dropdowns show it, YYYY-MM-DD. */
const buildDateText = (v: string) => `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`;

/**
 * Two more farm dropdowns named by the spec (§7 "Dropdown lists"): `compileTime`, the firmware build dates of the
 * farm's miners (text YYYY-MM-DD, value YYYYMMDD: the list's `firmware` filter takes it), newest first; `rateIdeal`,
 * the distinct ideal hashrates (value GH/s, text in the unit that reads best), highest first.
 */
export const SPEC_FARM_OPTION_NAMES = ['compileTime', 'rateIdeal'] as const;
export type SpecFarmOptionName = (typeof SPEC_FARM_OPTION_NAMES)[number];

export async function specFarmOptions(db: DB, agentKey: string, name: SpecFarmOptionName): Promise<Option[]> {
  if (name === 'compileTime') {
    const { rows } = await sql<{ v: string }>`
      select distinct to_char(m.compile_time at time zone 'UTC', 'YYYYMMDD') as v from miners m
      where m.agent_key = ${agentKey} and m.compile_time is not null order by 1 desc
    `.execute(db);
    return rows.map((r) => ({ text: buildDateText(r.v), value: r.v }));
  }
  const { rows } = await sql<{ v: number }>`select distinct m.ideal::float8 as v from miners m where m.agent_key = ${agentKey} and m.ideal > 0 order by 1 desc`.execute(db);
  return rows.map((r) => ({ text: formatHashrate(r.v), value: String(r.v) }));
}

export async function farmMinerOptions(db: DB, agentKey: string, name: FarmOptionName, locale: Locale): Promise<Option[]> {
  if (name === 'errorCode') return errorCodeOptions(db, agentKey, locale);
  if (name === 'model') {
    const { rows } = await sql<{ v: string }>`select distinct m.model as v from miners m where m.agent_key = ${agentKey} and m.model <> '' order by 1`.execute(db);
    return rows.map((r) => ({ text: r.v, value: r.v }));
  }
  if (name === 'firmwareVersion') {
    // A compile date (YYYYMMDD, shown YYYY-MM-DD) where the firmware reports one, else the version string.
    const { rows } = await sql<{ v: string; dated: boolean }>`
      select distinct coalesce(to_char(m.compile_time at time zone 'UTC', 'YYYYMMDD'), m.firmware_version) as v, m.compile_time is not null as dated
      from miners m where m.agent_key = ${agentKey} and (m.compile_time is not null or m.firmware_version <> '')
      order by 1 desc
    `.execute(db);
    return rows.map((r) => ({ text: r.dated ? buildDateText(r.v) : r.v, value: r.v }));
  }
  const { rows } = await sql<{ v: string }>`
    select distinct p ->> 'url' as v from miners m, json_array_elements(m.snapshot -> 'pools') p
    where m.agent_key = ${agentKey} and coalesce(p ->> 'url', '') <> '' order by 1
  `.execute(db);
  return rows.map((r) => ({ text: r.v, value: r.v }));
}

/**
 * The error codes the farm's miners report now (the list's errorCode filter takes the value): text "code message",
 * with the message most of its miners give (firmwares word the same code differently), the agent's own codes
 * (negative: login refused, writes refused) named in the request's language; lowest code first.
 */
async function errorCodeOptions(db: DB, agentKey: string, locale: Locale): Promise<Option[]> {
  const { rows } = await sql<{ code: string; message: string | null }>`
    select e ->> 'code' as code, mode() within group (order by e ->> 'message') as message
    from miners m, json_array_elements(${errorCodesSql()}) e
    where m.agent_key = ${agentKey} and ${MAY_HAVE_ERROR_CODES} and (e ->> 'code') ~ '^-?[0-9]{1,9}$'
    group by 1 order by (e ->> 'code')::int
  `.execute(db);
  return rows.map((r) => ({ text: errorCodeOptionText(locale, r.code, r.message ?? ''), value: r.code }));
}
