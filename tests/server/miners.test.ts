/**
 * Miner monitoring read side: a varied fleet is uploaded through the agent uplink (eight hourly cycles, an
 * old cycle of miners gone for 30 hours, and a second farm), then every filter, sort, paging, the counters,
 * dashboard and model statistics, detail, history, farm series, the dropdowns, farm isolation and bad
 * parameters are checked against figures computed here from the same snapshots.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotBatch } from '@shared/schemas/agent-uplink';
import type { FarmSeriesPoint, MinerDetail, MinerHistoryPoint, MinerIndexStat, MinerModelStat, MinerRow, MinerStat } from '@shared/schemas/miner';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { minerIp, minerSnapshot, readingTempMax } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin, uploadBatch } from './harness';

const HOUR_MS = 3_600_000;
const FLEET = 60;
/** Miners seen only in a cycle 30 hours ago (108 and 118 offline, 100 online then). */
const GONE = [100, 108, 118];
const NOW = Date.now();
const at = (hoursAgo: number) => new Date(NOW - hoursAgo * HOUR_MS).toISOString();

/** The builder's reading plus the states the builder does not make (sleep, low power, illegal pool, …). */
function reading(i: number, hoursAgo: number): MinerSnapshot {
  const s = structuredClone(minerSnapshot(i, { takenAt: at(hoursAgo) }));
  const zero = () => {
    s.rt5s = 0;
    s.rate30m = 0;
    s.avg = 0;
    for (const b of s.boards) b.rateGhs = 0;
  };
  switch (i) {
    case 1:
      zero();
      s.workMode = 'sleep';
      s.state = { ...s.state, qualified: false, sleeping: true };
      break;
    case 2:
      s.rt5s = s.ideal * 0.85;
      s.workMode = 'low-power';
      s.state = { ...s.state, lowPower: true };
      break;
    case 3: {
      const first = s.pools[0];
      if (first) first.url = 'stratum+tcp://Evil.Pool.example:3333';
      s.state = { ...s.state, illegalPool: true };
      break;
    }
    case 4:
      zero();
      s.boards = [];
      s.errorCodes = [{ code: 2010, message: 'all hashboards not found' }];
      s.state = { ...s.state, qualified: false, zeroHashrate: true, cannotStart: true };
      s.faultLabels = ['missing-hashboard'];
      break;
    case 5:
      for (const b of s.boards) b.tempChip = b.tempChip.map(() => 96);
      s.faultLabels = ['high-temperature'];
      break;
    case 10:
      s.fans = [0, 4300, 4310, 4320];
      s.faultLabels = ['fan-speed-abnormal'];
      break;
    case 11:
      s.ideal = 50_000;
      s.state = { ...s.state, abnormalIdeal: true };
      break;
    case 12:
      s.sn = '';
      s.faultLabels = ['empty-sn'];
      break;
    case 13:
    case 14:
      s.sn = 'DUPLICATE-SN-0001';
      s.faultLabels = ['duplicate-sn'];
      break;
    case 20:
      // Under 80 % in the cycle five hours ago only: not 8-hour qualified.
      if (hoursAgo === 5) {
        s.rt5s = s.ideal * 0.5;
        s.state = { ...s.state, qualified: false, unqualified: true };
      }
      break;
    default:
      break;
  }
  return s;
}

const indexes = Array.from({ length: FLEET }, (_, i) => i);
/** Cycles 7 … 0 hours ago (oldest first), as the agent uploads them. */
const CYCLES = [7, 6, 5, 4, 3, 2, 1, 0];
const latest = new Map<string, MinerSnapshot>([...indexes.map((i) => reading(i, 0)), ...GONE.map((i) => reading(i, 30))].map((s) => [s.ip, s]));
const all = [...latest.values()];

const isQualifiedReading = (s: MinerSnapshot) => s.online && s.ideal > 0 && s.rt5s >= 0.8 * s.ideal;

describe('miner monitoring (read side)', () => {
  let t: TestApp;
  let admin: Client;
  let farmA: { agentKey: string; secret: string };
  let farmB: { agentKey: string; secret: string };
  let seq = 0;

  const upload = async (creds: { agentKey: string; secret: string }, takenAt: string, snapshots: MinerSnapshot[]) => {
    seq += 1;
    const batch: SnapshotBatch = { agentVersion: '1.4.2', batchSeq: seq, cycleStartedAt: takenAt, cycleDurationMs: 8000, snapshots };
    const res = await uploadBatch(t.app, creds, batch);
    expect(res.statusCode, res.body).toBe(200);
  };

  const list = async (query: Record<string, string>, client: Client = admin) => {
    const res = await client.get('/api/miner/list', { agentKey: farmA.agentKey, pageSize: '1000', ...query });
    expect(res.statusCode, res.body).toBe(200);
    return body<{ list: MinerRow[]; total: number; curPage: number; pageSize: number }>(res).data;
  };
  const ipsOf = (rows: { ip: string }[]) => rows.map((r) => r.ip).sort();
  const expectIps = (pred: (s: MinerSnapshot) => boolean) => ipsOf(all.filter(pred));

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farmA = await createFarm(admin, 'mon-a');
    farmB = await createFarm(admin, 'mon-b');
    await upload(
      farmA,
      at(30),
      GONE.map((i) => reading(i, 30)),
    );
    for (const h of CYCLES) {
      await upload(
        farmA,
        at(h),
        indexes.map((i) => reading(i, h)),
      );
    }
    await upload(
      farmB,
      at(0),
      [0, 1, 2].map((i) => ({ ...reading(i, 0), ip: `172.16.0.${i + 1}` })),
    );
  }, 60_000);
  afterAll(async () => t.close());

  describe('list', () => {
    it('pages in IP order (numeric, 10.0.0.9 before 10.0.0.10)', async () => {
      const expected = all.map((s) => s.ip).sort((a, b) => (a.split('.').map(Number).reduce((x, n) => x * 256 + n, 0) - b.split('.').map(Number).reduce((x, n) => x * 256 + n, 0)));
      const p1 = await list({ page: '1', pageSize: '50' });
      const p2 = await list({ page: '2', pageSize: '50' });
      const p3 = await list({ page: '3', pageSize: '50' });
      expect(p1).toMatchObject({ total: all.length, curPage: 1, pageSize: 50 });
      expect(p1.list).toHaveLength(50);
      expect(p2.list).toHaveLength(all.length - 50);
      expect(p3.list).toEqual([]);
      expect(p3.total).toBe(all.length);
      expect([...p1.list, ...p2.list].map((r) => r.ip)).toEqual(expected);
      expect(p1.list.slice(8, 11).map((r) => r.ip)).toEqual(['10.0.0.9', '10.0.0.10', '10.0.0.11']);
    });

    it('computes every column from the latest reading', async () => {
      const rows = (await list({})).list;
      const s21 = rows.find((r) => r.ip === minerIp(0));
      const src = latest.get(minerIp(0))!;
      expect(s21).toMatchObject({
        sn: src.sn,
        mac: src.mac,
        model: 'S21',
        make: 'Bitmain',
        compileTime: '2024-07-11T08:38:25.000Z',
        network: 'online',
        gHS5s: src.rt5s,
        gHS30m: src.rate30m,
        gHSav: src.avg,
        rateIdeal: 200_000,
        rateUnit: 'GH/s',
        chainNum: 3,
        chipNum: 324,
        totalAcnNum: 324,
        chainAcn: '108/108/108',
        pool1Url: 'stratum+tcp://btc.pool-one.example:3333',
        pool1User: src.pools[0]!.user,
        pool1Status: 'alive',
        pool3Status: 'dead',
        poolStatus: 'alive',
        workMode: 'normal',
        elapsed: 86_400,
        takenAt: src.takenAt,
        fans: src.fans,
        fanMin: Math.min(...src.fans),
        fanMax: Math.max(...src.fans),
        frequency: 490,
        powerW: 3510,
        faultLabels: [],
        statuses: ['online', 'qualified'],
      });
      const chips = src.boards.flatMap((b) => b.tempChip);
      expect(s21?.tempChipMax).toBe(Math.max(...chips));
      expect(s21?.tempChipMin).toBe(Math.min(...chips));
      expect(s21?.tempChipsDiff).toBe(Math.max(...chips) - Math.min(...chips));
      expect(s21?.tempPcbMax).toBe(Math.max(...src.boards.flatMap((b) => b.tempPcb)));
      expect(s21?.tempPicMin).toBe(Math.min(...src.boards.flatMap((b) => b.tempPic)));
      expect(s21?.hwErrors).toBe(src.boards.reduce((n, b) => n + b.hwErrors, 0));
      expect(s21?.hashRatePercent).toBeCloseTo((src.rt5s / src.ideal) * 100, 1);
      expect(s21?.rate1Hour).toBeCloseTo(src.rt5s, 1);
      const accepted = src.pools.reduce((n, p) => n + p.accepted, 0);
      const rejected = src.pools.reduce((n, p) => n + p.rejected, 0);
      expect(s21?.rejectedRate).toBeCloseTo((rejected * 100) / (accepted + rejected), 2);

      const missing = rows.find((r) => r.ip === minerIp(9));
      expect(missing).toMatchObject({ chainAcn: '126/64/0', chipNum: 190, totalAcnNum: 378, errorCode: '0: chain 2 not found', faultLabels: ['missing-chip', 'missing-hashboard'] });
      expect(missing?.statuses).toEqual(['online', 'unqualified']);
      const dead = rows.find((r) => r.ip === minerIp(4));
      expect(dead).toMatchObject({ chainNum: 0, chipNum: 0, tempChipMax: null, errorCode: '2010: all hashboards not found' });
      expect(dead?.statuses).toEqual(['online', 'zeroHashrate', 'cannotStart']);
      const whatsminer = rows.find((r) => r.ip === minerIp(6));
      expect(whatsminer).toMatchObject({ compileTime: null, firmwareVersion: '20240305.22.REL', tempPicMax: null });
    });

    it('stores the figures of each reading with it, the same as computed from the snapshot', async () => {
      const stored = (await list({})).list;
      const kept = await sql<{ id: string; f: string }>`select id::text as id, list_figures as f from miners where agent_key = ${farmA.agentKey} and list_figures is not null`.execute(t.db);
      expect(kept.rows).toHaveLength(stored.length);
      // Without the stored figures, the list computes them from the snapshot: every row must read the same.
      await sql`update miners set list_figures = null where agent_key = ${farmA.agentKey}`.execute(t.db);
      try {
        expect((await list({})).list).toEqual(stored);
      } finally {
        await sql`update miners m set list_figures = k.f from (select unnest(${kept.rows.map((r) => r.id)}::uuid[]) as id, unnest(${kept.rows.map((r) => r.f)}::text[]) as f) k
                  where m.id = k.id`.execute(t.db);
      }
    });

    it('filters by every state', async () => {
      const checks: [string, (s: MinerSnapshot) => boolean][] = [
        ['online', (s) => s.online],
        ['offline', (s) => !s.online],
        ['qualified', (s) => s.state.qualified],
        ['unqualified', (s) => s.state.unqualified],
        ['zeroHashrate', (s) => s.state.zeroHashrate],
        ['cannotStart', (s) => s.state.cannotStart],
        ['illegalPool', (s) => s.state.illegalPool],
        ['abnormalIdeal', (s) => s.state.abnormalIdeal],
        ['sleeping', (s) => s.state.sleeping],
        ['lowPower', (s) => s.state.lowPower],
      ];
      for (const [status, pred] of checks) {
        const expected = expectIps(pred);
        expect(expected.length, status).toBeGreaterThan(0);
        expect(ipsOf((await list({ status })).list), status).toEqual(expected);
      }
    });

    it('filters by fault, model, firmware, pool, work mode, network and keyword', async () => {
      for (const f of ['missing-chip', 'missing-hashboard', 'high-temperature', 'fan-speed-abnormal', 'empty-sn', 'duplicate-sn'] as const) {
        expect(ipsOf((await list({ faultType: f })).list), f).toEqual(expectIps((s) => s.faultLabels.includes(f)));
      }
      expect((await list({ faultType: 'hashboard-failure' })).total).toBe(0);
      expect(ipsOf((await list({ model: 'M60S VK40' })).list)).toEqual(expectIps((s) => s.model === 'M60S VK40'));
      const dated = expectIps((s) => s.compileTime?.startsWith('2024-07-11') === true);
      expect(ipsOf((await list({ firmware: '20240711' })).list)).toEqual(dated);
      expect(ipsOf((await list({ firmware: '2024-07-11' })).list)).toEqual(dated);
      expect(ipsOf((await list({ firmware: '20240305.22.REL' })).list)).toEqual(expectIps((s) => s.firmwareVersion === '20240305.22.REL'));
      expect(ipsOf((await list({ pool: 'evil.POOL' })).list)).toEqual([minerIp(3)]);
      // Hottest chip at least (the probe wall's count of hot miners).
      const chipMax = (s: MinerSnapshot) => Math.max(-Infinity, ...s.boards.flatMap((b) => b.tempChip));
      for (const from of ['90', '70.5']) {
        expect(ipsOf((await list({ tempChipFrom: from, pageSize: '200' })).list), from).toEqual(expectIps((s) => chipMax(s) >= Number(from)));
      }
      expect((await list({ tempChipFrom: '90' })).total).toBeGreaterThan(0);
      expect((await list({ pool: 'pool-two' })).total).toBe(all.length);
      expect(ipsOf((await list({ workMode: 'sleep' })).list)).toEqual([minerIp(1)]);
      expect(ipsOf((await list({ network: 'offline' })).list)).toEqual(expectIps((s) => !s.online));
      expect(ipsOf((await list({ keyword: '10.0.0.1' })).list)).toEqual(expectIps((s) => s.ip.startsWith('10.0.0.1')));
      expect(ipsOf((await list({ keyword: 'duplicate-sn' })).list)).toEqual([minerIp(13), minerIp(14)]);
      expect((await list({ keyword: '%' })).total).toBe(0);
      // Filters combine with AND; empty values filter nothing; shelf is accepted (no shelves yet).
      expect(ipsOf((await list({ model: 'S21', network: 'offline' })).list)).toEqual(expectIps((s) => s.model === 'S21' && !s.online));
      expect((await list({ status: '', model: '', shelf: 'A-1' })).total).toBe(all.length);
      // Customer: as recorded on the miner (by name, or the customer's id from /api/options/customer).
      expect((await list({ customer: 'c1' })).total).toBe(0);
      await t.db
        .insertInto('miner_marks')
        .values([minerIp(2), minerIp(5)].map((ip) => ({ agent_key: farmA.agentKey, ip, customer: 'c1' })))
        .execute();
      expect(ipsOf((await list({ customer: 'c1' })).list)).toEqual([minerIp(2), minerIp(5)]);
      expect(ipsOf((await list({ customer: 'c1', keyword: minerIp(5) })).list)).toEqual([minerIp(5)]);
      await t.db.deleteFrom('miner_marks').where('agent_key', '=', farmA.agentKey).execute();
      // Sub-area: an unknown or malformed id matches nothing (the sub-area suite covers real trees).
      expect((await list({ subArea: '2' })).total).toBe(0);
      expect((await list({ subArea: 'x' })).total).toBe(0);
    });

    it('sorts by any whitelisted column with IP as the tie-break', async () => {
      const byRate = (await list({ sort: 'gHS5s', order: 'desc' })).list;
      for (let k = 1; k < byRate.length; k++) expect(byRate[k - 1]!.gHS5s).toBeGreaterThanOrEqual(byRate[k]!.gHS5s);
      const zeros = byRate.filter((r) => r.gHS5s === 0).map((r) => r.ip);
      expect(zeros).toEqual([...zeros].sort((a, b) => Number(a.split('.')[3]) - Number(b.split('.')[3])));

      const byTemp = (await list({ sort: 'tempChipMax', order: 'asc' })).list;
      const temps = byTemp.map((r) => r.tempChipMax);
      const firstNull = temps.indexOf(null);
      expect(firstNull).toBeGreaterThan(0);
      expect(temps.slice(firstNull).every((v) => v === null)).toBe(true);
      const numeric = temps.slice(0, firstNull) as number[];
      expect(numeric).toEqual([...numeric].sort((a, b) => a - b));

      const bySn = (await list({ sort: 'sn', order: 'asc', pageSize: '5' })).list.map((r) => r.sn);
      expect(bySn[0]).toBe('');
      const byPool = (await list({ sort: 'pool1Url', order: 'asc', pageSize: '1' })).list;
      expect(byPool[0]?.ip).toBe(minerIp(3));
      const byIpDesc = (await list({ sort: 'ip', order: 'desc', pageSize: '1' })).list;
      expect(byIpDesc[0]?.ip).toBe(minerIp(118));
      for (const sort of ['chipNum', 'fanMin', 'rate24Hour', 'errorCode', 'poolStatus', 'rejectedRate', 'takenAt', 'compileTime', 'network']) {
        const res = await list({ sort, order: 'desc', pageSize: '10' });
        expect(res.list, sort).toHaveLength(10);
      }
    });
  });

  describe('statistics', () => {
    it('counts the filtered miners per state and fault, 8-hour qualified and offline over 24 h', async () => {
      const stat = body<MinerStat>(await admin.get('/api/miner/stat', { agentKey: farmA.agentKey })).data;
      const count = (pred: (s: MinerSnapshot) => boolean) => all.filter(pred).length;
      expect(stat).toMatchObject({
        total: all.length,
        online: count((s) => s.online),
        offline: count((s) => !s.online),
        qualified: count((s) => s.state.qualified),
        unqualified: count((s) => s.state.unqualified),
        zeroHashrate: count((s) => s.state.zeroHashrate),
        cannotStart: 1,
        illegalPool: 1,
        abnormalIdeal: 1,
        sleeping: 1,
        lowPower: 1,
        offline24h: 2,
      });
      expect(stat.faults).toEqual({
        'high-temperature': 1,
        'missing-chip': count((s) => s.faultLabels.includes('missing-chip')),
        'fan-speed-abnormal': 1,
        'missing-hashboard': count((s) => s.faultLabels.includes('missing-hashboard')),
        'hashboard-failure': 0,
        'empty-sn': 1,
        'duplicate-sn': 2,
      });
      const qualified8h = indexes.filter((i) => CYCLES.every((h) => isQualifiedReading(reading(i, h)))).length;
      expect(qualified8h).toBeLessThan(stat.qualified);
      expect(stat.qualified8h).toBe(qualified8h);

      // The two counts over time are list filters too: their counters list the miners they count.
      const q8 = await list({ status: 'qualified8h', pageSize: '200' });
      expect(q8.total).toBe(qualified8h);
      expect(q8.list.map((r) => r.ip).sort()).toEqual(indexes.filter((i) => CYCLES.every((h) => isQualifiedReading(reading(i, h)))).map(minerIp).sort());
      const off24 = await list({ status: 'offline24h', pageSize: '200' });
      expect(off24.total).toBe(2);
      for (const r of off24.list) {
        expect(r.online, r.ip).toBe(false);
        expect(Date.now() - Date.parse(r.takenAt!), r.ip).toBeGreaterThan(24 * 3_600_000);
      }
      // …combined with the other filters, as the counters are.
      const s21Off24 = body<MinerStat>(await admin.get('/api/miner/stat', { agentKey: farmA.agentKey, model: 'S21', status: 'offline24h' })).data;
      expect(s21Off24.total).toBe((await list({ status: 'offline24h', model: 'S21' })).total);
      expect(s21Off24.total).toBe(s21Off24.offline24h);

      const s21 = body<MinerStat>(await admin.get('/api/miner/stat', { agentKey: farmA.agentKey, model: 'S21' })).data;
      expect(s21.total).toBe(count((s) => s.model === 'S21'));
      expect(s21.offline).toBe(count((s) => s.model === 'S21' && !s.online));
    });

    it('gives the dashboard figures and per-model figures', async () => {
      const idx = body<MinerIndexStat>(await admin.get('/api/miner/indexStat', { agentKey: farmA.agentKey })).data;
      const online = all.filter((s) => s.online);
      const qualified = online.filter((s) => s.state.qualified);
      expect(idx.total).toBe(all.length);
      expect(idx.online).toBe(online.length);
      expect(idx.qualified).toBe(qualified.length);
      expect(idx.realGhs).toBeCloseTo(online.reduce((n, s) => n + s.rt5s, 0), 2);
      expect(idx.idealGhs).toBeCloseTo(all.reduce((n, s) => n + s.ideal, 0), 2);
      expect(idx.onlineRate).toBeCloseTo((online.length * 100) / all.length, 2);
      expect(idx.qualifiedRate).toBeCloseTo((qualified.length * 100) / online.length, 2);
      expect(idx.tempMax).toBe(96);
      const temps = online.map(readingTempMax).filter((v): v is number => v !== null);
      expect(idx.tempAvg).toBeCloseTo(temps.reduce((a, b) => a + b, 0) / temps.length, 1);
      const faultCount = (f: string) => all.filter((s) => s.faultLabels.includes(f as never)).length;
      expect(idx.topFaults.slice(0, 2)).toEqual([
        { label: 'missing-hashboard', count: faultCount('missing-hashboard') },
        { label: 'missing-chip', count: faultCount('missing-chip') },
      ]);
      expect(idx.topFaults.every((f) => f.count === faultCount(f.label))).toBe(true);
      expect(idx.updatedAt).toBe(at(0));

      const models = body<MinerModelStat[]>(await admin.get('/api/miner/modelstat', { agentKey: farmA.agentKey })).data;
      expect(models.map((m) => m.model)).toEqual(['S21', 'M60S VK40', 'S19j Pro']);
      for (const m of models) {
        const mine = all.filter((s) => s.model === m.model);
        expect(m).toMatchObject({ count: mine.length, online: mine.filter((s) => s.online).length, qualified: mine.filter((s) => s.online && s.state.qualified).length });
        expect(m.realGhs).toBeCloseTo(mine.filter((s) => s.online).reduce((n, s) => n + s.rt5s, 0), 2);
        expect(m.idealGhs).toBeCloseTo(mine.reduce((n, s) => n + s.ideal, 0), 2);
      }
    });
  });

  describe('one miner', () => {
    it('answers the detail with the full snapshot, 404 for an unknown IP', async () => {
      const res = await admin.get('/api/miner/detail', { agentKey: farmA.agentKey, ip: minerIp(9) });
      const d = body<MinerDetail>(res).data;
      expect(d.snapshot).toEqual(latest.get(minerIp(9)));
      expect(d).toMatchObject({ ip: minerIp(9), model: 'S19j Pro', faultLabels: ['missing-chip', 'missing-hashboard'], chainAcn: '126/64/0' });
      expect((await admin.get('/api/miner/detail', { agentKey: farmA.agentKey, ip: '10.9.9.9' })).statusCode).toBe(404);
    });

    it('answers hourly, daily and monthly history from the hourly samples', async () => {
      const hist = async (range: string, i = 20) => body<MinerHistoryPoint[]>(await admin.get('/api/miner/history', { agentKey: farmA.agentKey, ip: minerIp(i), range })).data;
      const hourly = await hist('hour');
      expect(hourly).toHaveLength(CYCLES.length);
      expect(hourly.map((p) => p.at)).toEqual(CYCLES.map((h) => new Date(Math.floor((NOW - h * HOUR_MS) / HOUR_MS) * HOUR_MS).toISOString()));
      const dip = hourly[CYCLES.indexOf(5)];
      expect(dip?.realGhs).toBeCloseTo(100_000, 1);
      expect(hourly.every((p) => p.samples === 1 && p.onlineRatio === 1 && p.idealGhs === 200_000)).toBe(true);
      const daily = await hist('day');
      expect(daily.reduce((n, p) => n + p.samples, 0)).toBe(CYCLES.length);
      const days = new Set(CYCLES.map((h) => new Date(NOW - h * HOUR_MS).toISOString().slice(0, 10)));
      expect(daily.map((p) => p.at.slice(0, 10))).toEqual([...days]);
      const monthly = await hist('month');
      expect(monthly.reduce((n, p) => n + p.samples, 0)).toBe(CYCLES.length);
      const offline = await hist('hour', 8);
      expect(offline.every((p) => p.onlineRatio === 0 && p.realGhs === 0)).toBe(true);
      expect((await admin.get('/api/miner/history', { agentKey: farmA.agentKey, ip: '10.9.9.9', range: 'day' })).statusCode).toBe(404);
    });

    it("aggregates the farm's series to minutes, hours and days", async () => {
      const series = async (range: string) => body<FarmSeriesPoint[]>(await admin.get('/api/miner/farmSeries', { agentKey: farmA.agentKey, range })).data;
      const minutes = await series('hour');
      expect(minutes).toHaveLength(CYCLES.length);
      const last = minutes[minutes.length - 1]!;
      const now = indexes.map((i) => reading(i, 0));
      expect(last.total).toBe(FLEET);
      expect(last.online).toBe(now.filter((s) => s.online).length);
      expect(last.realGhs).toBeCloseTo(now.filter((s) => s.online).reduce((n, s) => n + s.rt5s, 0), 1);
      expect(last.at).toBe(new Date(Math.floor(NOW / 60_000) * 60_000).toISOString());
      const hours = await series('30d');
      expect(hours).toHaveLength(CYCLES.length + 1);
      expect(hours[0]?.total).toBe(GONE.length);
      const days = await series('1y');
      const dayKeys = new Set([30, ...CYCLES].map((h) => new Date(NOW - h * HOUR_MS).toISOString().slice(0, 10)));
      expect(days.map((p) => p.at.slice(0, 10))).toEqual([...dayKeys].sort());
    });
  });

  describe('dropdowns', () => {
    it('names fixed lists in the request language and lists the farm values', async () => {
      const opt = async (name: string, locale?: string) =>
        body<{ text: string; value: string }[]>(
          await admin.request({ method: 'GET', url: `/api/options/${name}`, query: { agentKey: farmA.agentKey }, headers: locale ? { I18N: locale } : {} }),
        ).data;
      const status = await opt('status');
      expect(status.map((o) => o.value)).toEqual(['online', 'offline', 'qualified', 'unqualified', 'zeroHashrate', 'cannotStart', 'illegalPool', 'abnormalIdeal', 'sleeping', 'lowPower', 'qualified8h', 'offline24h']);
      expect(status[11]).toEqual({ text: 'Offline over 24 hours', value: 'offline24h' });
      expect(status[5]).toEqual({ text: 'Cannot start', value: 'cannotStart' });
      expect((await opt('status', 'zh-CN'))[1]).toEqual({ text: '离线', value: 'offline' });
      expect((await opt('faultType', 'ru'))[0]).toEqual({ text: 'Высокая температура', value: 'high-temperature' });
      expect((await opt('workMode')).map((o) => o.value)).toEqual(['normal', 'sleep', 'low-power', 'high']);
      expect(await opt('network')).toEqual([
        { text: 'Online', value: 'online' },
        { text: 'Offline', value: 'offline' },
      ]);
      expect(await opt('model')).toEqual(['M60S VK40', 'S19j Pro', 'S21'].map((m) => ({ text: m, value: m })));
      expect(await opt('firmwareVersion')).toEqual([
        { text: '2024-07-11', value: '20240711' },
        { text: '20240305.22.REL', value: '20240305.22.REL' },
        { text: '2022-12-26', value: '20221226' },
      ]);
      expect((await opt('poolUrl')).map((o) => o.value)).toEqual([
        'stratum+tcp://Evil.Pool.example:3333',
        'stratum+tcp://btc.pool-one.example:3333',
        'stratum+tcp://btc.pool-three.example:25',
        'stratum+tcp://btc.pool-two.example:443',
      ]);
    });

    it("answers the spec's other dropdown names: the same lists, and the farm's build dates and ideal hashrates", async () => {
      const opt = async (name: string) => {
        const res = await admin.get(`/api/options/${name}`, { agentKey: farmA.agentKey });
        expect(res.statusCode, `${name} ${res.body}`).toBe(200);
        return body<{ text: string; value: string }[]>(res).data;
      };
      for (const [alias, name] of [['faultReason', 'faultType'], ['factory', 'area'], ['adminagent', 'agent'], ['coinList', 'coinType']]) {
        expect(await opt(alias!), alias).toEqual(await opt(name!));
      }
      expect((await opt('faultReason')).map((o) => o.value)).toContain('missing-chip');
      expect((await opt('adminagent')).map((o) => o.value)).toContain(farmA.agentKey);
      const dates = await opt('compileTime');
      expect(dates).toEqual([
        { text: '2024-07-11', value: '20240711' },
        { text: '2022-12-26', value: '20221226' },
      ]);
      // A build date is a value of the list's firmware filter.
      const built = body<{ total: number }>(await admin.get('/api/miner/list', { agentKey: farmA.agentKey, firmware: dates[0]!.value })).data;
      expect(built.total).toBeGreaterThan(0);
      const ideal = await opt('rateIdeal');
      expect(ideal.length).toBeGreaterThan(0);
      expect(ideal.map((o) => Number(o.value))).toEqual([...ideal.map((o) => Number(o.value))].sort((a, b) => b - a));
      for (const o of ideal) expect(o.text).toMatch(/^[\d,.]+ [KMGTPE]?H\/s$/);
    });
  });

  describe('access and validation', () => {
    it('keeps farms apart: a member of farm A gets 403 on farm B and sees only A', async () => {
      const member = (await createMember(admin, 'miner-viewer', [10000], [farmA.agentKey])).client;
      expect((await list({}, member)).total).toBe(all.length);
      for (const url of ['/api/miner/list', '/api/miner/stat', '/api/miner/indexStat', '/api/miner/modelstat', '/api/miner/farmSeries', '/api/options/model', '/api/options/poolUrl']) {
        expect((await member.get(url, { agentKey: farmB.agentKey })).statusCode, url).toBe(403);
      }
      expect((await member.get('/api/miner/detail', { agentKey: farmB.agentKey, ip: '172.16.0.1' })).statusCode).toBe(403);
      const b = body<{ list: MinerRow[] }>(await admin.get('/api/miner/list', { agentKey: farmB.agentKey })).data.list;
      expect(b.map((r) => r.ip)).toEqual(['172.16.0.1', '172.16.0.2', '172.16.0.3']);
      // Without the miners key nothing is readable, not even the fixed lists.
      const other = (await createMember(admin, 'no-miners', [1000], [farmA.agentKey])).client;
      expect((await other.get('/api/miner/list', { agentKey: farmA.agentKey })).statusCode).toBe(403);
      expect((await other.get('/api/options/status')).statusCode).toBe(403);
    });

    it('answers 400 for bad parameters', async () => {
      const bad: Record<string, string>[] = [
        { status: 'broken' },
        { faultType: 'nope' },
        { sort: 'snapshot' },
        { order: 'sideways' },
        { page: '0' },
        { pageSize: '5000' },
        { workMode: 'turbo' },
        { network: 'maybe' },
        { tempChipFrom: 'hot' },
        { tempChipFrom: '999' },
      ];
      for (const q of bad) {
        const res = await admin.get('/api/miner/list', { agentKey: farmA.agentKey, ...q });
        expect(res.statusCode, JSON.stringify(q)).toBe(400);
      }
      expect((await admin.get('/api/miner/list')).statusCode).toBe(400);
      expect((await admin.get('/api/miner/history', { agentKey: farmA.agentKey, ip: minerIp(0), range: 'week' })).statusCode).toBe(400);
      expect((await admin.get('/api/miner/farmSeries', { agentKey: farmA.agentKey, range: '5y' })).statusCode).toBe(400);
      expect((await admin.get('/api/miner/detail', { agentKey: farmA.agentKey })).statusCode).toBe(400);
    });
  });
});
