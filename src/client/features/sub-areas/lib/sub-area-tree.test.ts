import { describe, expect, it } from 'vitest';
import type { SubArea } from '@shared/schemas/sub-areas';
import { buildTree, leafAreas, moveTargets, subtreeDepth } from './sub-area-tree';

const area = (id: number, parentId: number | null, level: number, name: string, extra: Partial<SubArea> = {}): SubArea => ({
  id,
  parentId,
  name,
  level,
  path: [name],
  childCount: 0,
  segmentCount: 0,
  minerCount: 0,
  ...extra,
});

// A(1) > B(2) > C(3) > D(4); E(5) holds segments; F(6) under E? no: E is a leaf with segments.
const AREAS: SubArea[] = [
  area(1, null, 1, 'A', { childCount: 1 }),
  area(2, 1, 2, 'B', { childCount: 1 }),
  area(3, 2, 3, 'C', { childCount: 1 }),
  area(4, 3, 4, 'D'),
  area(5, null, 1, 'E', { segmentCount: 2 }),
  area(7, null, 1, 'G'),
];

describe('sub-area tree helpers', () => {
  it('nests the flat list and sorts siblings by name', () => {
    const tree = buildTree([...AREAS].reverse());
    expect(tree.map((n) => n.area.name)).toEqual(['A', 'E', 'G']);
    expect(tree[0]!.children[0]!.children[0]!.children[0]!.area.name).toBe('D');
  });

  it('measures subtree depth', () => {
    expect(subtreeDepth(AREAS, 1)).toBe(3);
    expect(subtreeDepth(AREAS, 4)).toBe(0);
  });

  it('offers only moves that keep 5 levels, avoid itself, its sub-areas and areas with segments', () => {
    // B has 2 levels below it: under G (level 1) it ends at level 4; under D (its own descendant) never.
    expect(moveTargets(AREAS, 2).map((a) => a?.id ?? null)).toEqual([null, 7]);
    // D (leaf, level 4) can go anywhere but E (segments) and its parent C.
    expect(moveTargets(AREAS, 4).map((a) => a?.id ?? null)).toEqual([null, 1, 2, 7]);
    // A top-level area is not offered the top level again; A has depth 3 so under G it would reach level 5: allowed.
    expect(moveTargets(AREAS, 1).map((a) => a?.id ?? null)).toEqual([7]);
  });

  it('lists leaves for IP segments', () => {
    expect(leafAreas(AREAS).map((a) => a.id)).toEqual([4, 5, 7]);
  });
});
