/**
 * What the sidebar shows (spec 1 §2.3): the sections the server answered for this user and farm, minus
 * hidden entries, self-miner entries when the farm is not self-run, and entries whose page is not built.
 */
import { MENU_CATALOGUE, type MenuNode } from '@shared/menu-catalogue';

/** Sidebar widths (px), expanded and folded (spec 1 §2.3). Here, not in the component, so the layout can size the
 * navbar without loading the sidebar (lazy: phones never render it). */
export const SIDEBAR_WIDTH = 230;
export const SIDEBAR_FOLDED_WIDTH = 80;

export interface SidebarFilter {
  selfMiners: boolean;
  hasComponent: (key: string) => boolean;
}

function visibleNode(node: MenuNode, f: SidebarFilter): MenuNode | null {
  if (node.hidden) return null;
  if (node.selfMiner && !f.selfMiners) return null;
  const routes = node.routes.map((c) => visibleNode(c, f)).filter((c): c is MenuNode => c !== null);
  if (!f.hasComponent(node.key) && routes.length === 0) return null;
  return { ...node, routes };
}

export function sidebarSections(sections: readonly MenuNode[], f: SidebarFilter): MenuNode[] {
  return sections
    .map((section) => ({ ...section, routes: section.routes.map((n) => visibleNode(n, f)).filter((n): n is MenuNode => n !== null) }))
    .filter((section) => section.routes.length > 0);
}

/** The catalogue entry for a pathname, exact match (catalogue paths have no parameters). */
export function entryForPath(pathname: string) {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return MENU_CATALOGUE.find((m) => m.path === clean);
}

/** The sidebar path to highlight for a pathname (a hidden detail page lights its parent). */
export function activeSidebarPath(pathname: string): string {
  const entry = entryForPath(pathname);
  return entry?.activePath ?? entry?.path ?? pathname;
}

/** Whether switching farm on this page stays on it (group 'defaults' or a page outside the catalogue). */
export function staysOnFarmSwitch(pathname: string): boolean {
  const entry = entryForPath(pathname);
  return entry === undefined || entry.group === 'defaults';
}
