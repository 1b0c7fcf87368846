import { describe, expect, it } from 'vitest';
import { buildMenuTree } from '@shared/menu-catalogue';
import { activeSidebarPath, sidebarSections, staysOnFarmSwitch } from './sidebar-model';

const built = new Set(['dashboard', 'agentList', 'hostInfo', 'hostInfoDetail', 'users', 'roles', 'attendance']);
const hasComponent = (k: string) => built.has(k);

describe('sidebarSections', () => {
  it('keeps only permitted, built, visible entries', () => {
    const tree = buildMenuTree(new Set([1000, 10000, 60000, 60100, 60200, 66000]), { selfMiners: false });
    const sections = sidebarSections(tree, { selfMiners: false, hasComponent });
    expect(sections.map((s) => s.key)).toEqual(['overview', 'farms', 'accountSecurity']);
    const keys = sections.flatMap((s) => s.routes.flatMap((r) => [r.key, ...r.routes.map((c) => c.key)]));
    // minerList is permitted but not built; hostInfoDetail is hidden; roles is not permitted.
    expect(keys).toEqual(['dashboard', 'agentList', 'hostInfo', 'users']);
  });
  it('hides self-miner entries unless the farm is self-run', () => {
    const perms = new Set([50000]);
    expect(sidebarSections(buildMenuTree(perms, { selfMiners: true }), { selfMiners: false, hasComponent })).toEqual([]);
    const shown = sidebarSections(buildMenuTree(perms, { selfMiners: true }), { selfMiners: true, hasComponent });
    expect(shown[0]?.routes.map((r) => r.key)).toEqual(['attendance']);
  });
});

describe('route helpers', () => {
  it('lights the parent entry for a hidden detail page', () => {
    expect(activeSidebarPath('/agents/hostInfo/detail')).toBe('/agents/hostInfo');
    expect(activeSidebarPath('/agents/')).toBe('/agents');
  });
  it('stays on farm-independent pages when the farm changes', () => {
    expect(staysOnFarmSwitch('/agents')).toBe(true);
    expect(staysOnFarmSwitch('/setting/user')).toBe(true);
    expect(staysOnFarmSwitch('/user/center')).toBe(true);
    expect(staysOnFarmSwitch('/setting/agent/agent')).toBe(false);
    expect(staysOnFarmSwitch('/')).toBe(false);
  });
});
