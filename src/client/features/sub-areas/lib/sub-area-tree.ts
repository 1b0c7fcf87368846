/** Pure helpers of the sub-area tree screen: nesting the flat list, the move targets, the leaves. */
import { SUB_AREA_LIMITS, type SubArea } from '@shared/schemas/sub-areas';

export interface TreeNode {
  area: SubArea;
  children: TreeNode[];
}

/** Nests the flat list (parents before or after children, any order) into roots sorted by name. */
export function buildTree(areas: readonly SubArea[]): TreeNode[] {
  const nodes = new Map<number, TreeNode>(areas.map((a) => [a.id, { area: a, children: [] }]));
  const roots: TreeNode[] = [];
  for (const a of areas) {
    const node = nodes.get(a.id)!;
    const parent = a.parentId === null ? undefined : nodes.get(a.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const sort = (list: TreeNode[]) => {
    list.sort((x, y) => x.area.name.localeCompare(y.area.name));
    for (const n of list) sort(n.children);
  };
  sort(roots);
  return roots;
}

/** Depth of the subtree below `id` (0 = no children). */
export function subtreeDepth(areas: readonly SubArea[], id: number): number {
  const children = areas.filter((a) => a.parentId === id);
  return children.length === 0 ? 0 : 1 + Math.max(...children.map((c) => subtreeDepth(areas, c.id)));
}

function descendants(areas: readonly SubArea[], id: number): Set<number> {
  const out = new Set<number>([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const a of areas) {
      if (a.parentId !== null && out.has(a.parentId) && !out.has(a.id)) {
        out.add(a.id);
        grew = true;
      }
    }
  }
  return out;
}

/**
 * Where `id` may move: not into itself or its sub-areas, not under an area holding IP segments, and not
 * where its deepest sub-area would pass level 5. null = the top level.
 */
export function moveTargets(areas: readonly SubArea[], id: number): (SubArea | null)[] {
  const blocked = descendants(areas, id);
  const depth = subtreeDepth(areas, id);
  const self = areas.find((a) => a.id === id);
  const targets: (SubArea | null)[] = self?.parentId === null ? [] : [null];
  for (const a of areas) {
    if (blocked.has(a.id) || a.id === self?.parentId) continue;
    if (a.segmentCount > 0) continue;
    if (a.level + 1 + depth > SUB_AREA_LIMITS.maxLevels) continue;
    targets.push(a);
  }
  return targets;
}

/** Leaf areas: the ones IP segments can be assigned to (spec 3 §5 "a leaf node must be chosen"). */
export function leafAreas(areas: readonly SubArea[]): SubArea[] {
  return areas.filter((a) => a.childCount === 0).sort((x, y) => x.path.join('/').localeCompare(y.path.join('/')));
}
