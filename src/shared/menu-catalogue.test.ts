import { describe, expect, it } from 'vitest';
import { ALL_PERMISSION_KEYS, MENU_CATALOGUE, PERMISSION, buildMenuTree } from './menu-catalogue';

describe('menu catalogue', () => {
  it('keeps the spec keys', () => {
    const byKey = (k: string) => MENU_CATALOGUE.find((m) => m.key === k);
    expect(byKey('minerList')).toMatchObject({ permission: 10000, operation: 10500, path: '/device/miner' });
    expect(byKey('customers')?.permission).toBe(61000);
    expect(byKey('roles')?.permission).toBe(65000);
    expect(byKey('users')?.permission).toBe(66000);
    expect(PERMISSION.minerOperations).toBe(10500);
  });

  it('gives every page a unique key, path and permission, and no operation key equals another page key', () => {
    const keys = MENU_CATALOGUE.map((m) => m.key);
    const paths = MENU_CATALOGUE.map((m) => m.path);
    const all = MENU_CATALOGUE.flatMap((m) => [m.permission, m.operation]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(all).size).toBe(all.length);
    expect(ALL_PERMISSION_KEYS.length).toBe(all.length);
  });

  it('filters the tree by permission and the self-miner flag', () => {
    const perms = new Set([1000, 10000, 50000]);
    const withoutSelf = buildMenuTree(perms, { selfMiners: false }).flatMap((s) => s.routes.map((r) => r.key));
    expect(withoutSelf).toEqual(['dashboard', 'minerList']);
    const withSelf = buildMenuTree(perms, { selfMiners: true }).flatMap((s) => s.routes.map((r) => r.key));
    expect(withSelf).toContain('attendance');
  });

  it('nests child entries under their parent', () => {
    const tree = buildMenuTree(new Set(ALL_PERMISSION_KEYS), { selfMiners: true });
    const farms = tree.find((s) => s.key === 'farms');
    const hostInfo = farms?.routes.find((r) => r.key === 'hostInfo');
    expect(hostInfo?.routes.map((r) => r.key)).toEqual(['hostInfoDetail']);
  });
});
