/**
 * Every column of the miner list (spec 3 §2, §3 Miner): a sensible set shown by default, the rest in the
 * column picker. Each column also says what an export writes for it, so CSV and Excel carry the visible
 * columns with the same texts as the screen (hashrates with units from the shared formatters).
 * The live figures (real-time and 30-minute hashrate, hashrate %) of an offline miner show "—" rather than its last
 * reading, and export as empty cells (as every other absent value does).
 * Customer, zone (the miner's sub-area, "Top / Row / Rack") and accident mark come from the miner's records, not its
 * reading; the list cannot be sorted by them.
 */
import type { TFunction } from 'i18next';
import { Group, Text } from '@mantine/core';
import type { Column } from '@client/components/data-table/data-table-types';
import { formatDate } from '@shared/format/date';
import { formatHashrate } from '@shared/format/hashrate';
import { formatNumber } from '@shared/format/number';
import { type MinerLabelKind, accidentText, errorCodesText } from '@shared/miner-labels';
import type { MinerRow } from '@shared/schemas/miner';
import { FaultBadges, NotAnsweringBadge, PoolStatusDot, StatusBadges, notAnswering } from '../components/status-badges';
import { durationParts, firmwareText, formatFans, formatPercent, formatTemp, liveFigure } from './format-miner';

export type ExportCell = string | number | null;

export interface MinerColumn extends Column<MinerRow> {
  title: string;
  exportValue: (row: MinerRow) => ExportCell;
}

type Label = (kind: MinerLabelKind, value: string) => string;

const dash = (v: string) => (v === '' ? '-' : v);

/** Width of the SN column, px: a whole 17-character serial number (the usual length) without "…". */
export const SN_COLUMN_WIDTH = 210;

/**
 * About how wide a header's title is, px, in the table's bold 14 px: CJK characters are square, capitals and digits
 * wider than small letters. Errs wide (measured with DejaVu Sans, a wide face).
 */
export function titleWidth(title: string): number {
  let w = 0;
  for (const ch of title) w += /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 14.5 : /[A-ZА-ЯЁ0-9%]/.test(ch) ? 11 : ch === ' ' ? 5 : 10;
  return Math.ceil(w);
}

/**
 * A column at least as wide as its whole title (plus the cell's padding, and the sort arrows of a sortable one): the
 * widths below suit the values, but "Теоретический хешрейт", "Chip temp spread" or "芯片最高温度" were cut to
 * "Теоретич…", "Chip te…", "芯片最高…" — and four hashrate columns all reading "Хешре…" cannot be told apart.
 */
function fitTitle(c: MinerColumn): MinerColumn {
  const need = titleWidth(c.title) + (c.sortable ? 42 : 28);
  return need > (c.width ?? 150) ? { ...c, width: need } : c;
}

export function minerColumns(t: TFunction<'miners'>, label: Label): MinerColumn[] {
  const elapsed = (s: number) => {
    const p = durationParts(s);
    return t('units.elapsed', { ...p });
  };
  /** `live`: a reading of now, meaningless once the miner is offline. */
  const hashrate = (key: keyof MinerRow & ('gHS5s' | 'gHS30m' | 'gHSav' | 'rateIdeal'), live = false): MinerColumn => ({
    key,
    title: t(`columns.${key}`),
    width: 130,
    align: 'right',
    sortable: true,
    render: (r) => (live ? liveFigure(r.online, formatHashrate(r[key])) : formatHashrate(r[key])),
    exportValue: (r) => (live && !r.online ? null : formatHashrate(r[key])),
  });
  const nullableHashrate = (key: 'rate1Hour' | 'rate24Hour'): MinerColumn => ({
    key,
    title: t(`columns.${key}`),
    width: 130,
    align: 'right',
    sortable: true,
    defaultHidden: true,
    render: (r) => (r[key] === null ? '-' : formatHashrate(r[key])),
    exportValue: (r) => (r[key] === null ? null : formatHashrate(r[key])),
  });
  const temp = (key: 'tempChipMin' | 'tempChipMax' | 'tempChipsDiff' | 'tempPcbMin' | 'tempPcbMax' | 'tempPicMin' | 'tempPicMax', hidden = true): MinerColumn => ({
    key,
    title: t(`columns.${key}`),
    width: 110,
    align: 'right',
    sortable: true,
    defaultHidden: hidden,
    render: (r) => formatTemp(r[key]),
    exportValue: (r) => r[key],
  });
  const num = (key: 'fanMin' | 'fanMax' | 'chainNum' | 'chipNum' | 'totalAcnNum' | 'hwErrors' | 'frequency' | 'powerW' | 'missedPolls', width = 100): MinerColumn => ({
    key,
    title: t(`columns.${key}`),
    width,
    align: 'right',
    sortable: true,
    defaultHidden: true,
    render: (r) => formatNumber(r[key]),
    exportValue: (r) => r[key],
  });
  const text = (key: 'mac' | 'make' | 'family' | 'firmwareVersion' | 'pool1User' | 'pool2Url' | 'pool2User' | 'pool3Url' | 'pool3User' | 'chainAcn', width: number, hidden = true, sortable = true): MinerColumn => ({
    key,
    title: t(`columns.${key}`),
    width,
    sortable,
    defaultHidden: hidden,
    render: (r) => dash(r[key]),
    exportValue: (r) => r[key],
  });
  /** The reading's errors: the agent's own (a refused login …) in the interface language, a firmware's as it wrote them. */
  const errorText = (r: MinerRow) => (r.errorCodes.length ? errorCodesText(r.errorCodes, label) : r.errorCode);
  const time = (key: 'takenAt' | 'firstSeenAt'): MinerColumn => ({
    key,
    title: t(`columns.${key}`),
    width: 170,
    sortable: true,
    defaultHidden: true,
    render: (r) => formatDate(r[key]),
    exportValue: (r) => formatDate(r[key]),
  });

  const columns: MinerColumn[] = [
    {
      key: 'ip',
      title: t('columns.ip'),
      width: 130,
      sortable: true,
      fixed: 'left',
      render: (r) => (
        <Text size="sm" ff="monospace" c="blue.7">
          {r.ip}
        </Text>
      ),
      exportValue: (r) => r.ip,
    },
    // A 17-character SN is up to ~177 px at the table's 14 px sans-serif (widest of 816 measured), plus 2 × 10 px of padding.
    { key: 'sn', title: t('columns.sn'), width: SN_COLUMN_WIDTH, sortable: true, render: (r) => dash(r.sn), exportValue: (r) => r.sn },
    { key: 'model', title: t('columns.model'), width: 120, sortable: true, render: (r) => dash(r.model), exportValue: (r) => r.model },
    // From the miner's marks and its sub-area (not sortable: not columns of the miners table).
    { key: 'customer', title: t('columns.customer'), width: 150, render: (r) => r.customer ?? '-', exportValue: (r) => r.customer },
    { key: 'zone', title: t('columns.zone'), width: 200, render: (r) => r.zone ?? '-', exportValue: (r) => r.zone },
    {
      key: 'compileTime',
      title: t('columns.compileTime'),
      width: 130,
      sortable: true,
      render: (r) => firmwareText(r.compileTime, r.firmwareVersion),
      exportValue: (r) => firmwareText(r.compileTime, r.firmwareVersion),
    },
    {
      key: 'statuses',
      title: t('columns.status'),
      width: 210,
      render: (r) => <StatusBadges statuses={r.statuses.filter((s) => s !== 'online' && s !== 'offline')} compact />,
      exportValue: (r) => r.statuses.filter((s) => s !== 'online' && s !== 'offline').map((s) => label('status', s)).join(', '),
    },
    {
      key: 'network',
      title: t('columns.network'),
      width: 130, // room for "No answer ×2" (NotAnsweringBadge), the widest in Russian
      sortable: true,
      render: (r) => (notAnswering(r) ? <NotAnsweringBadge missed={r.missedPolls} takenAt={r.takenAt} /> : <StatusBadges statuses={[r.network]} compact />),
      exportValue: (r) => (notAnswering(r) ? t('list.notAnswering', { count: r.missedPolls }) : label('network', r.network)),
    },
    hashrate('gHS5s', true),
    hashrate('gHS30m', true),
    hashrate('gHSav'),
    hashrate('rateIdeal'),
    {
      key: 'hashRatePercent',
      title: t('columns.hashRatePercent'),
      width: 110,
      align: 'right',
      sortable: true,
      render: (r) => liveFigure(r.online, formatPercent(r.hashRatePercent)),
      exportValue: (r) => (r.online ? r.hashRatePercent : null),
    },
    nullableHashrate('rate1Hour'),
    nullableHashrate('rate24Hour'),
    temp('tempChipMax', false),
    temp('tempChipMin'),
    temp('tempChipsDiff'),
    temp('tempPcbMax'),
    temp('tempPcbMin'),
    temp('tempPicMax'),
    temp('tempPicMin'),
    // Four fans: "5,947 / 5,932 / 5,946 / 5,873" (~221 px) was cut at 170.
    { key: 'fans', title: t('columns.fans'), width: 240, render: (r) => formatFans(r.fans), exportValue: (r) => formatFans(r.fans) },
    num('fanMin'),
    num('fanMax'),
    {
      key: 'pool1Url',
      title: t('columns.pool1Url'),
      width: 240,
      sortable: true,
      render: (r) => (
        <Group gap={6} wrap="nowrap">
          {r.pool1Status && <PoolStatusDot status={r.pool1Status} />}
          <Text size="sm" truncate>
            {dash(r.pool1Url)}
          </Text>
        </Group>
      ),
      exportValue: (r) => r.pool1Url,
    },
    text('pool1User', 180, false),
    text('pool2Url', 240),
    text('pool2User', 180),
    text('pool3Url', 240),
    text('pool3User', 180),
    {
      key: 'poolStatus',
      title: t('columns.poolStatus'),
      width: 110,
      sortable: true,
      defaultHidden: true,
      render: (r) => (r.poolStatus ? label('poolStatus', r.poolStatus) : '-'),
      exportValue: (r) => (r.poolStatus ? label('poolStatus', r.poolStatus) : ''),
    },
    {
      key: 'faultReason',
      title: t('columns.faultReason'),
      width: 250, // the longest label, "АНОМАЛЬНАЯ СКОРОСТЬ ВЕНТИЛЯТОРА", and "+N"
      sortable: true,
      render: (r) => (r.faultLabels.length ? <FaultBadges labels={r.faultLabels} compact /> : '-'),
      exportValue: (r) => r.faultLabels.map((f) => label('faultType', f)).join(', '),
    },
    {
      key: 'accident',
      title: t('columns.accident'),
      width: 220,
      defaultHidden: true,
      render: (r) => accidentText(r, label) ?? '-',
      exportValue: (r) => accidentText(r, label),
    },
    {
      key: 'workMode',
      title: t('columns.workMode'),
      width: 110,
      sortable: true,
      render: (r) => label('workMode', r.workMode),
      exportValue: (r) => label('workMode', r.workMode),
    },
    {
      key: 'elapsed',
      title: t('columns.elapsed'),
      width: 150, // "14 д 23 ч 38 мин" (~142 px) was cut at 120
      align: 'right',
      sortable: true,
      render: (r) => elapsed(r.elapsed),
      exportValue: (r) => elapsed(r.elapsed),
    },
    text('firmwareVersion', 200),
    text('mac', 160),
    text('make', 120),
    text('family', 130),
    num('chainNum', 90),
    num('chipNum', 100),
    num('totalAcnNum', 110),
    text('chainAcn', 130),
    num('hwErrors'),
    num('frequency'),
    {
      key: 'rejectedRate',
      title: t('columns.rejectedRate'),
      width: 110,
      align: 'right',
      sortable: true,
      defaultHidden: true,
      render: (r) => formatPercent(r.rejectedRate, 3),
      exportValue: (r) => r.rejectedRate,
    },
    num('powerW'),
    {
      key: 'errorCode',
      title: t('columns.errorCode'),
      width: 220,
      sortable: true,
      defaultHidden: true,
      render: (r) => dash(errorText(r)),
      exportValue: errorText,
    },
    num('missedPolls'),
    time('takenAt'),
    time('firstSeenAt'),
  ];
  return columns.map(fitTitle);
}
