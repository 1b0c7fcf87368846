/**
 * Fixed miner vocabularies (spec 3 §4) and their names in the three interface languages. The server
 * answers the dropdowns GET /api/options/{status,faultType,workMode,network} from here in the request's
 * language; the client names the same values (status badges, fault labels, export cells) from here too,
 * so a value is called the same everywhere. Isomorphic: no DOM, no node imports.
 */
import { AGENT_ERROR_CODES, type FaultLabel, type MinerErrorCode, OFFLINE_REASON_CODES, type PoolStatus, type WorkMode } from './schemas/miner-snapshot';
import { DEFAULT_LOCALE, type Locale } from './validation';

/** Miner states of spec 3 §4 as list filters and counters (not mutually exclusive). */
export const MINER_STATUSES = [
  'online',
  'offline',
  'qualified',
  'unqualified',
  'zeroHashrate',
  'cannotStart',
  'illegalPool',
  'abnormalIdeal',
  'sleeping',
  'lowPower',
] as const;
export type MinerStatus = (typeof MINER_STATUSES)[number];

/**
 * The list filter's states: the states of spec 3 §4 and the two counts it shows over time (spec 3 §4 "Counts shown"),
 * 8-hour qualified (online, and qualified in every hourly sample of the last 8 hours) and offline over 24 hours (no
 * reading for more than a day), so their counters list the miners they count. Not states of one reading: a row's
 * badges (minerStatuses) and the phones' copies know only MINER_STATUSES.
 */
export const MINER_FILTER_STATUSES = [...MINER_STATUSES, 'qualified8h', 'offline24h'] as const;
export type MinerFilterStatus = (typeof MINER_FILTER_STATUSES)[number];

export const MINER_NETWORKS = ['online', 'offline'] as const;
export type MinerNetwork = (typeof MINER_NETWORKS)[number];

export const MINER_WORK_MODES: readonly WorkMode[] = ['normal', 'sleep', 'low-power', 'high'];

export const MINER_FAULT_LABELS: readonly FaultLabel[] = [
  'high-temperature',
  'missing-chip',
  'fan-speed-abnormal',
  'missing-hashboard',
  'hashboard-failure',
  'empty-sn',
  'duplicate-sn',
];

export const MINER_POOL_STATUSES: readonly PoolStatus[] = ['alive', 'dead', 'unknown'];

/**
 * Accident / exception types a miner can be marked with (spec 3 §3 "Accident/exception types: list retrieved from
 * options": GET /api/options/accidentList; batchAccident and the field app's "Mark fault"). The fault labels first
 * (what a technician sees on the miner), then what happened around it. A mark stored before this list (free text)
 * is shown as it was written.
 */
export const MINER_ACCIDENT_TYPES = [
  ...MINER_FAULT_LABELS,
  'power-failure',
  'network-failure',
  'liquid-damage',
  'physical-damage',
  'other',
] as const;
export type MinerAccidentType = (typeof MINER_ACCIDENT_TYPES)[number];

/**
 * Where the repair of a miner taken off shelf stands (spec 3 §3 Miner "repairStatus", §4 shelf-level statuses and
 * repair kinds; GET /api/options/repairStatus; /unshelve-miner/maintain): a miner taken off shelf awaits repair until
 * someone sets another status; back on shelf ends it.
 */
export const REPAIR_STATUSES = ['awaiting', 'onsite', 'outsourced', 'pendingShelf', 'scrapped'] as const;
export type RepairStatus = (typeof REPAIR_STATUSES)[number];

/** The agent's own error codes (AGENT_ERROR_CODES) as label keys. */
const AGENT_ERROR_KEYS = Object.values(AGENT_ERROR_CODES).map(String) as readonly AgentErrorCode[];
type AgentErrorCode = `${(typeof AGENT_ERROR_CODES)[keyof typeof AGENT_ERROR_CODES]}`;
/** The agent's reasons of an offline miner (OFFLINE_REASON_CODES) as label keys. */
const OFFLINE_REASON_KEYS = OFFLINE_REASON_CODES.map(String) as readonly OfflineReasonKey[];
type OfflineReasonKey = `${(typeof AGENT_ERROR_CODES)['noAnswer' | 'refused' | 'dropped' | 'unreachable']}`;

interface LabelCatalogue {
  status: Record<MinerFilterStatus, string>;
  faultType: Record<FaultLabel, string>;
  workMode: Record<WorkMode, string>;
  network: Record<MinerNetwork, string>;
  poolStatus: Record<PoolStatus, string>;
  accident: Record<Exclude<MinerAccidentType, FaultLabel>, string>;
  repairStatus: Record<RepairStatus, string>;
  /** The agent's own errors (AGENT_ERROR_CODES), by code. */
  agentError: Record<AgentErrorCode, string>;
  /** Its reasons of an offline miner without the word "offline", where the place already says so (the status beside it, a card's title). */
  offlineReason: Record<OfflineReasonKey, string>;
}

export type MinerLabelKind = keyof LabelCatalogue;

const LABELS: Record<Locale, LabelCatalogue> = {
  'zh-CN': {
    status: {
      online: '在线',
      offline: '离线',
      qualified: '正常',
      unqualified: '算力不合格',
      zeroHashrate: '零算力',
      cannotStart: '无法启动',
      illegalPool: '非法矿池',
      abnormalIdeal: '理论算力异常',
      sleeping: '休眠',
      lowPower: '低功耗',
      qualified8h: '8小时正常',
      offline24h: '离线超过24小时',
    },
    faultType: {
      'high-temperature': '高温',
      'missing-chip': '缺芯片',
      'fan-speed-abnormal': '风扇转速异常',
      'missing-hashboard': '缺算力板',
      'hashboard-failure': '算力板故障',
      'empty-sn': 'SN为空',
      'duplicate-sn': 'SN重复',
    },
    workMode: { normal: '正常', sleep: '休眠', 'low-power': '低功耗', high: '高性能' },
    network: { online: '在线', offline: '离线' },
    poolStatus: { alive: '正常', dead: '失效', unknown: '未知' },
    accident: { 'power-failure': '断电', 'network-failure': '网络故障', 'liquid-damage': '进水 / 液体损坏', 'physical-damage': '物理损坏', other: '其他' },
    repairStatus: { awaiting: '待维修', onsite: '现场维修', outsourced: '外发维修', pendingShelf: '修好待上架', scrapped: '报废' },
    agentError: {
      '-401': '矿机拒绝了矿场的登录账号：请在“矿场设置 → 矿机登录账号”中添加它的密码',
      '-403': '矿机已关闭 API 写入（can\'t access write cmd）',
      '-110': '离线：无应答（断电，或网线、交换机故障）',
      '-111': '离线：连接被拒绝（重启中、API 已关闭，或该地址是其他设备）',
      '-104': '离线：连接在应答前断开（矿机程序卡死或正在重启）',
      '-113': '离线：主机不可达（网络中找不到该地址）',
    },
    offlineReason: {
      '-110': '无应答（断电，或网线、交换机故障）',
      '-111': '连接被拒绝（重启中、API 已关闭，或该地址是其他设备）',
      '-104': '连接在应答前断开（矿机程序卡死或正在重启）',
      '-113': '主机不可达（网络中找不到该地址）',
    },
  },
  'en-US': {
    status: {
      online: 'Online',
      offline: 'Offline',
      qualified: 'Qualified',
      unqualified: 'Unqualified hashrate',
      zeroHashrate: 'Zero hashrate',
      cannotStart: 'Cannot start',
      illegalPool: 'Illegal pool',
      abnormalIdeal: 'Abnormal ideal hashrate',
      sleeping: 'Sleeping',
      lowPower: 'Low power',
      qualified8h: 'Qualified for 8 hours',
      offline24h: 'Offline over 24 hours',
    },
    faultType: {
      'high-temperature': 'High temperature',
      'missing-chip': 'Missing chip',
      'fan-speed-abnormal': 'Fan speed abnormal',
      'missing-hashboard': 'Missing hashboard',
      'hashboard-failure': 'Hashboard failure',
      'empty-sn': 'Empty SN',
      'duplicate-sn': 'Duplicate SN',
    },
    workMode: { normal: 'Normal', sleep: 'Sleep', 'low-power': 'Low power', high: 'High performance' },
    network: { online: 'Online', offline: 'Offline' },
    poolStatus: { alive: 'Alive', dead: 'Dead', unknown: 'Unknown' },
    accident: { 'power-failure': 'Power failure', 'network-failure': 'Network failure', 'liquid-damage': 'Liquid damage', 'physical-damage': 'Physical damage', other: 'Other' },
    repairStatus: { awaiting: 'Awaiting repair', onsite: 'Onsite repair', outsourced: 'Outsourced repair', pendingShelf: 'Repaired, pending shelf', scrapped: 'Scrapped' },
    agentError: {
      '-401': "The miner refused the farm's logins: add its password under Farm settings → Miner logins",
      '-403': "The miner's API refuses write commands (can't access write cmd)",
      '-110': 'Offline: no answer (powered off, or a cable or switch is down)',
      '-111': 'Offline: connection refused (rebooting, API turned off, or another device at this address)',
      '-104': 'Offline: connection closed before a reply (miner software hung or restarting)',
      '-113': 'Offline: host unreachable (the network finds no such address)',
    },
    offlineReason: {
      '-110': 'No answer (powered off, or a cable or switch is down)',
      '-111': 'Connection refused (rebooting, API turned off, or another device at this address)',
      '-104': 'Connection closed before a reply (miner software hung or restarting)',
      '-113': 'Host unreachable (the network finds no such address)',
    },
  },
  ru: {
    status: {
      online: 'В сети',
      offline: 'Не в сети',
      qualified: 'Норма',
      unqualified: 'Низкий хешрейт',
      zeroHashrate: 'Нулевой хешрейт',
      cannotStart: 'Не запускается',
      illegalPool: 'Недопустимый пул',
      abnormalIdeal: 'Аномальный теоретический хешрейт',
      sleeping: 'Сон',
      lowPower: 'Пониженное питание',
      qualified8h: 'Норма 8 часов',
      offline24h: 'Не в сети более 24 часов',
    },
    faultType: {
      'high-temperature': 'Высокая температура',
      'missing-chip': 'Нет чипов',
      'fan-speed-abnormal': 'Аномальная скорость вентилятора',
      'missing-hashboard': 'Нет хеш-платы',
      'hashboard-failure': 'Отказ хеш-платы',
      'empty-sn': 'Пустой SN',
      'duplicate-sn': 'Повторяющийся SN',
    },
    workMode: { normal: 'Обычный', sleep: 'Сон', 'low-power': 'Пониженное питание', high: 'Высокая производительность' },
    network: { online: 'В сети', offline: 'Не в сети' },
    poolStatus: { alive: 'Работает', dead: 'Не работает', unknown: 'Неизвестно' },
    accident: { 'power-failure': 'Отключение питания', 'network-failure': 'Сбой сети', 'liquid-damage': 'Повреждение жидкостью', 'physical-damage': 'Механическое повреждение', other: 'Другое' },
    repairStatus: { awaiting: 'Ожидает ремонта', onsite: 'Ремонт на месте', outsourced: 'Внешний ремонт', pendingShelf: 'Отремонтирован, ждёт возврата на стеллаж', scrapped: 'Списан' },
    agentError: {
      '-401': 'Майнер отклонил входы фермы: добавьте его пароль в «Настройки фермы → Входы на майнеры»',
      '-403': 'API майнера отклоняет команды записи (can\'t access write cmd)',
      '-110': 'Не в сети: нет ответа (нет питания или неисправен кабель либо коммутатор)',
      '-111': 'Не в сети: соединение отклонено (перезагрузка, API отключён или по этому адресу другое устройство)',
      '-104': 'Не в сети: соединение закрыто до ответа (программа майнера зависла или перезапускается)',
      '-113': 'Не в сети: узел недоступен (сеть не находит этот адрес)',
    },
    offlineReason: {
      '-110': 'Нет ответа (нет питания или неисправен кабель либо коммутатор)',
      '-111': 'Соединение отклонено (перезагрузка, API отключён или по этому адресу другое устройство)',
      '-104': 'Соединение закрыто до ответа (программа майнера зависла или перезапускается)',
      '-113': 'Узел недоступен (сеть не находит этот адрес)',
    },
  },
};

const VALUES: { [K in MinerLabelKind]: readonly (K extends 'accident' ? MinerAccidentType : keyof LabelCatalogue[K])[] } = {
  status: MINER_FILTER_STATUSES,
  faultType: MINER_FAULT_LABELS,
  workMode: MINER_WORK_MODES,
  network: MINER_NETWORKS,
  poolStatus: MINER_POOL_STATUSES,
  accident: MINER_ACCIDENT_TYPES,
  repairStatus: REPAIR_STATUSES,
  agentError: AGENT_ERROR_KEYS,
  offlineReason: OFFLINE_REASON_KEYS,
};

/** The name of a value in a language; an unknown value (a free-text accident mark) is returned as it is. */
export function minerLabel(locale: Locale, kind: MinerLabelKind, value: string): string {
  const catalogue = LABELS[locale] ?? LABELS[DEFAULT_LOCALE];
  const table = catalogue[kind] as Record<string, string>;
  // The accident types begin with the fault labels, named as the fault labels are.
  return table[value] ?? (kind === 'accident' ? (catalogue.faultType as Record<string, string>)[value] : undefined) ?? value;
}

/** A fixed vocabulary as dropdown options `{ text, value }` in catalogue order. */
export function minerLabelOptions(locale: Locale, kind: MinerLabelKind): { text: string; value: string }[] {
  return (VALUES[kind] as readonly string[]).map((value) => ({ text: minerLabel(locale, kind, value), value }));
}

/** The states that hold for a miner, in catalogue order (online or offline first). */
export function minerStatuses(online: boolean, state: Record<string, boolean | undefined>): MinerStatus[] {
  return MINER_STATUSES.filter((s) => (s === 'online' ? online : s === 'offline' ? !online : state[s] === true));
}

/**
 * A miner's accident mark as the list, its export, the detail page and the field card write it: the type's name in
 * the interface language (free text stored before the list of types as written), then " — note" when there is a
 * note; null when the miner has no mark.
 */
export function accidentText(r: { accident: string | null; accidentNote: string | null }, label: (kind: MinerLabelKind, value: string) => string): string | null {
  const parts = [r.accident ? label('accident', r.accident) : '', r.accidentNote ?? ''].filter((p) => p !== '');
  return parts.length ? parts.join(' — ') : null;
}

/**
 * A reading's errors as the list, its export and the detail write them, "code: text" joined with "; ": the agent's own
 * errors (AGENT_ERROR_CODES) in the interface language with what to do, a firmware's as the firmware wrote it.
 */
export function errorCodeText(e: MinerErrorCode, label: (kind: MinerLabelKind, value: string) => string): string {
  return (AGENT_ERROR_KEYS as readonly string[]).includes(String(e.code)) ? label('agentError', String(e.code)) : e.message;
}

/**
 * Why an offline miner's agent cannot read it: the first of its error codes when that is one of the agent's reasons
 * (OFFLINE_REASON_CODES; src/agent/offline-reason.ts puts it first). None for an online miner, or a row without codes.
 */
export function offlineReasonOf(m: { online: boolean; errorCodes?: readonly MinerErrorCode[] }): MinerErrorCode | null {
  const first = m.errorCodes?.[0];
  return !m.online && first && OFFLINE_REASON_CODES.includes(first.code) ? first : null;
}

/**
 * An error code as the error-code dropdown names it, "code message": the agent's own codes by their name in the
 * language, a firmware's with the message given (none: the code alone).
 */
export function errorCodeOptionText(locale: Locale, code: string, message = ''): string {
  const named = minerLabel(locale, 'agentError', code);
  const text = named !== code ? named : message.trim();
  return text ? `${code} ${text}` : code;
}

export function errorCodesText(list: readonly MinerErrorCode[], label: (kind: MinerLabelKind, value: string) => string): string {
  return list.map((e) => `${e.code}: ${errorCodeText(e, label)}`).join('; ');
}
