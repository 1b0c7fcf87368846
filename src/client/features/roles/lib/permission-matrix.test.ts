import { describe, expect, it } from 'vitest';
import { MENU_CATALOGUE, MENU_SECTIONS } from '@shared/menu-catalogue';
import { columnState, countPages, matrixSections, serializePermissions, setCell, setCells } from './permission-matrix';

const entry = (key: string) => {
  const found = MENU_CATALOGUE.find((m) => m.key === key);
  if (!found) throw new Error(key);
  return found;
};

describe('matrixSections', () => {
  it('lists every catalogue entry once, in section order, children after their parent', () => {
    const sections = matrixSections();
    expect(sections.map((s) => s.section)).toEqual(MENU_SECTIONS.filter((s) => MENU_CATALOGUE.some((m) => m.section === s)));
    const keys = sections.flatMap((s) => s.entries.map((e) => e.key));
    expect(new Set(keys).size).toBe(MENU_CATALOGUE.length);
    expect(keys.indexOf('hostInfoDetail')).toBe(keys.indexOf('hostInfo') + 1);
  });
});

describe('cells', () => {
  it('operate implies view; removing view removes operate', () => {
    const users = entry('users');
    let set = setCell(new Set(), users, 'operate', true);
    expect([...set].sort()).toEqual([66000, 66500]);
    set = setCell(set, users, 'view', false);
    expect(set.size).toBe(0);
  });

  it('selects a whole section and reports column states', () => {
    const stats = matrixSections().find((s) => s.section === 'statistics');
    if (!stats) throw new Error('statistics section');
    const set = setCells(new Set(), stats.entries, 'view', true);
    expect(columnState(set, stats.entries, 'view')).toBe('all');
    expect(columnState(set, stats.entries, 'operate')).toBe('none');
    const partial = setCell(set, entry('dailyReport'), 'view', false);
    expect(columnState(partial, stats.entries, 'view')).toBe('some');
    expect(columnState(setCells(set, stats.entries, 'operate', true), stats.entries, 'operate')).toBe('all');
  });

  it('serialises known keys sorted and counts pages', () => {
    expect(serializePermissions(new Set([66500, 10000, 66000, 999_999]))).toBe('10000,66000,66500');
    expect(countPages([10000, 66000, 66500])).toEqual({ view: 2, operate: 1 });
  });
});
