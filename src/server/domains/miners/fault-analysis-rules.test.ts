import { describe, expect, it } from 'vitest';
import { type AnalysisInput, analyseMiner } from './fault-analysis-rules';

type Reading = AnalysisInput['reading'];
const board = (index: number, over: Partial<Reading['boards'][number]> = {}): Reading['boards'][number] => ({
  index,
  chips: 108,
  expectedChips: 108,
  tempPcb: [60, 65],
  tempChip: [70, 75],
  tempPic: [],
  rateGhs: 66_000,
  hwErrors: 3,
  ...over,
});
const state = { online: true, qualified: true, unqualified: false, zeroHashrate: false, cannotStart: false, illegalPool: false, abnormalIdeal: false, sleeping: false, lowPower: false };
const healthy = (): Reading => ({
  online: true,
  missedPolls: 0,
  rt5s: 198_000,
  ideal: 200_000,
  boards: [board(0), board(1), board(2)],
  fans: [4300, 4350, 4320, 4380],
  pools: [{ url: 'stratum+tcp://pool.example:3333', user: 'farm.w1', status: 'alive', active: true, accepted: 1200, rejected: 3 }],
  workMode: 'normal',
  elapsedSec: 86_400,
  errorCodes: [],
  state,
  faultLabels: [],
});
const codes = (reading: Reading, day: AnalysisInput['day'] = { samples: 24, online: 24 }) => analyseMiner({ reading, day }).map((f) => f.code);

describe('fault analysis rules', () => {
  it('finds nothing wrong with a healthy miner', () => {
    expect(analyseMiner({ reading: healthy(), day: { samples: 60, online: 60 } })).toEqual([{ code: 'healthy', severity: 'info', params: {} }]);
  });

  it('names a missing hashboard and missing chips with their board, most serious first', () => {
    const r = healthy();
    r.boards = [board(0, { chips: 54 }), board(1, { chips: 0, rateGhs: 0 }), board(2)];
    r.rt5s = 100_000;
    r.state = { ...state, qualified: false, unqualified: true };
    const found = analyseMiner({ reading: r, day: null });
    expect(found.slice(0, 2)).toEqual([
      { code: 'missingChips', severity: 'critical', params: { board: 1, chips: 54, expected: 108 } },
      { code: 'missingBoard', severity: 'critical', params: { board: 2 } },
    ]);
    expect(found.map((f) => f.code)).toContain('lowHashrate');
    expect(found.find((f) => f.code === 'lowHashrate')?.params).toEqual({ percent: 50 });
  });

  it('tells overheating from running hot, and stopped from slow fans', () => {
    const hot = healthy();
    hot.boards = [board(0, { tempChip: [96, 99] }), board(1), board(2)];
    hot.faultLabels = ['high-temperature'];
    expect(analyseMiner({ reading: hot, day: null })[0]).toEqual({ code: 'overheat', severity: 'critical', params: { temp: 99, board: 1 } });
    const warm = healthy();
    warm.boards = [board(0), board(1), board(2, { tempChip: [86, 88] })];
    expect(analyseMiner({ reading: warm, day: null })).toEqual([{ code: 'runningHot', severity: 'warning', params: { temp: 88, board: 3 } }]);
    const fans = healthy();
    fans.fans = [4300, 0, 1500, 4380];
    expect(codes(fans)).toEqual(['fanStopped', 'fanSlow']);
  });

  it('checks the pools: none set, none alive, not allowed, too many rejects', () => {
    const none = healthy();
    none.pools = [];
    expect(codes(none)).toEqual(['noPoolConfigured']);
    const dead = healthy();
    dead.pools = [{ ...dead.pools[0]!, status: 'dead' }];
    expect(codes(dead)).toEqual(['noPoolAlive']);
    const illegal = healthy();
    illegal.state = { ...state, illegalPool: true };
    expect(codes(illegal)).toEqual(['illegalPool']);
    const rejects = healthy();
    rejects.pools = [{ ...rejects.pools[0]!, accepted: 900, rejected: 100 }];
    expect(analyseMiner({ reading: rejects, day: null })).toEqual([{ code: 'rejects', severity: 'warning', params: { percent: 10, pool: 'stratum+tcp://pool.example:3333' } }]);
  });

  it('finds a weak board and a board with many hardware errors', () => {
    const r = healthy();
    r.boards = [board(0), board(1, { rateGhs: 30_000, hwErrors: 5000 }), board(2)];
    expect(analyseMiner({ reading: r, day: null })).toEqual([
      { code: 'weakBoard', severity: 'warning', params: { board: 2, percent: 45 } },
      { code: 'hwErrors', severity: 'warning', params: { board: 2, count: 5000 } },
    ]);
  });

  it('tells an offline miner, zero hashrate, a miner that cannot start, firmware errors, instability and a restart', () => {
    const off = healthy();
    off.online = false;
    off.missedPolls = 4;
    expect(analyseMiner({ reading: off, day: null })[0]).toEqual({ code: 'offline', severity: 'critical', params: { missed: 4 } });
    const zero = healthy();
    zero.rt5s = 0;
    zero.state = { ...state, qualified: false, zeroHashrate: true };
    expect(codes(zero)).toEqual(['zeroHashrate']);
    const dead = healthy();
    dead.rt5s = 0;
    dead.boards = dead.boards.map((b) => ({ ...b, chips: 0, rateGhs: 0 }));
    dead.state = { ...state, qualified: false, zeroHashrate: true, cannotStart: true };
    expect(codes(dead)).toEqual(['missingBoard', 'missingBoard', 'missingBoard', 'cannotStart']);
    const errs = healthy();
    errs.errorCodes = [{ code: 530, message: 'SM0 not found' }];
    errs.elapsedSec = 300;
    expect(analyseMiner({ reading: errs, day: { samples: 40, online: 30 } })).toEqual([
      { code: 'firmwareError', severity: 'warning', params: { code: 530, message: 'SM0 not found' } },
      { code: 'unstable', severity: 'warning', params: { percent: 75 } },
      { code: 'restarted', severity: 'info', params: { minutes: 5 } },
    ]);
    // too few samples to judge stability
    expect(codes(healthy(), { samples: 5, online: 1 })).toEqual(['healthy']);
  });

  it("does not call the agent's reason for an offline miner a firmware error", () => {
    const r = { ...healthy(), online: false, missedPolls: 3, state: { ...state, online: false, qualified: false } };
    r.errorCodes = [{ code: 530, message: 'SM0 not found' }, { code: -110, message: 'offline: no answer in time' }];
    const found = analyseMiner({ reading: r, day: { samples: 24, online: 24 } });
    expect(found.map((f) => f.code)).toContain('offline');
    expect(found.filter((f) => f.code === 'firmwareError').map((f) => f.params.code)).toEqual([530]);
  });

  it('says a sleeping or low-power miner is so, without calling it faulty', () => {
    const sleep = healthy();
    sleep.workMode = 'sleep';
    sleep.rt5s = 0;
    sleep.state = { ...state, qualified: false, sleeping: true };
    expect(codes(sleep)).toEqual(['sleeping']);
    const low = healthy();
    low.workMode = 'low-power';
    low.rt5s = 140_000;
    expect(codes(low)).toEqual(['lowPower']);
  });
});
