/** Every shell namespace (and the offline / field ones) exists in all three languages with the same keys, and every catalogue entry has a title. */
import { describe, expect, it } from 'vitest';
import { MENU_CATALOGUE, MENU_SECTIONS } from '@shared/menu-catalogue';
import { LOCALES } from '@shared/validation';

const files = import.meta.glob<Record<string, unknown>>('/src/locales/*/*.json', { eager: true, import: 'default' });
const NAMESPACES = ['common', 'menu', 'shell', 'auth', 'notifications', 'dashboard', 'offline', 'field'];

function keys(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('locale catalogues', () => {
  for (const ns of NAMESPACES) {
    it(`${ns} has the same keys in every language, none empty`, () => {
      const reference = keys(files[`/src/locales/zh-CN/${ns}.json`]).sort();
      expect(reference.length).toBeGreaterThan(0);
      for (const lng of LOCALES) {
        const cat = files[`/src/locales/${lng}/${ns}.json`];
        expect(cat, `${lng}/${ns}.json`).toBeDefined();
        expect(keys(cat).sort()).toEqual(reference);
      }
    });
  }
  it('titles every catalogue entry and section', () => {
    for (const lng of LOCALES) {
      const menu = files[`/src/locales/${lng}/menu.json`] as Record<string, unknown> & { section: Record<string, string> };
      for (const m of MENU_CATALOGUE) expect(typeof menu[m.key], `${lng} menu:${m.key}`).toBe('string');
      for (const s of MENU_SECTIONS) expect(typeof menu.section[s], `${lng} menu:section.${s}`).toBe('string');
    }
  });
});
