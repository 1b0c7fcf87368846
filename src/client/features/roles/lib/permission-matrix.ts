/**
 * The role permission matrix: rows are the menu sections and their entries of MENU_CATALOGUE, columns are
 * "view" (the entry's permission key) and "operate" (its operation key). Operating implies viewing:
 * checking "operate" checks "view", unchecking "view" unchecks "operate".
 */
import { MENU_CATALOGUE, MENU_SECTIONS, type MenuEntry, type MenuSection } from '@shared/menu-catalogue';

export type MatrixColumn = 'view' | 'operate';
export type ColumnState = 'all' | 'some' | 'none';

export interface MatrixSection {
  section: MenuSection;
  entries: readonly MenuEntry[];
}

/** Sections in sidebar order; a nested entry follows its parent. */
export function matrixSections(): MatrixSection[] {
  return MENU_SECTIONS.map((section) => {
    const inSection = MENU_CATALOGUE.filter((m) => m.section === section);
    const ordered: MenuEntry[] = [];
    for (const entry of inSection.filter((m) => !m.parent)) {
      ordered.push(entry, ...inSection.filter((m) => m.parent === entry.key));
    }
    // Children whose parent lives elsewhere keep their place at the end.
    for (const entry of inSection) if (!ordered.includes(entry)) ordered.push(entry);
    return { section, entries: ordered };
  }).filter((s) => s.entries.length > 0);
}

const keyOf = (entry: MenuEntry, column: MatrixColumn) => (column === 'view' ? entry.permission : entry.operation);

export function setCell(current: ReadonlySet<number>, entry: MenuEntry, column: MatrixColumn, checked: boolean): Set<number> {
  return setCells(current, [entry], column, checked);
}

export function setCells(current: ReadonlySet<number>, entries: readonly MenuEntry[], column: MatrixColumn, checked: boolean): Set<number> {
  const next = new Set(current);
  for (const entry of entries) {
    if (checked) {
      next.add(keyOf(entry, column));
      if (column === 'operate') next.add(entry.permission);
    } else {
      next.delete(keyOf(entry, column));
      if (column === 'view') next.delete(entry.operation);
    }
  }
  return next;
}

export function columnState(current: ReadonlySet<number>, entries: readonly MenuEntry[], column: MatrixColumn): ColumnState {
  const held = entries.filter((e) => current.has(keyOf(e, column))).length;
  if (held === 0) return 'none';
  return held === entries.length ? 'all' : 'some';
}

/** Only keys the catalogue knows, sorted, comma-joined as the server expects. */
export function serializePermissions(current: ReadonlySet<number>): string {
  const known = new Set(MENU_CATALOGUE.flatMap((m) => [m.permission, m.operation]));
  return [...current]
    .filter((k) => known.has(k))
    .sort((a, b) => a - b)
    .join(',');
}

/** How many pages a role may view and operate (for the roles list). */
export function countPages(permissions: readonly number[]): { view: number; operate: number } {
  const held = new Set(permissions);
  return {
    view: MENU_CATALOGUE.filter((m) => held.has(m.permission)).length,
    operate: MENU_CATALOGUE.filter((m) => held.has(m.operation)).length,
  };
}
