/**
 * Sub-areas (/setting/agent/subArea, keys 83000 / 83500) and sub-IP segments (/setting/agent/subIp, keys
 * 83100 / 83600). GET /api/minerv2/agentSubArea/list is the spec's name (spec 3 §7); the writes and the
 * sub-IP calls are designed in the same style (spec: "not shown"). Every call is farm-scoped.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DeleteSubAreaBody,
  DeleteSubIpBody,
  MoveSubAreaBody,
  SUB_AREA_PERMISSION,
  SUB_IP_PERMISSION,
  SaveSubAreaBody,
  SaveSubIpBody,
  SubAreaListQuery,
  SubIpListQuery,
} from '@shared/schemas/sub-areas';
import {
  type Translate,
  deleteSubArea,
  deleteSubIps,
  listSubAreas,
  listSubIps,
  moveSubArea,
  saveSubArea,
  saveSubIps,
  subAreaOptions,
} from '../domains/sub-areas/sub-areas.repository';
import { translate } from '../i18n';
import { ok } from '../plugins/envelope';

export async function subAreaRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['sub-areas'];
  const areaView = { permission: SUB_AREA_PERMISSION.view, farmScoped: true };
  const areaOperate = { permission: SUB_AREA_PERMISSION.operate, farmScoped: true };
  const ipView = { permission: SUB_IP_PERMISSION.view, farmScoped: true };
  const ipOperate = { permission: SUB_IP_PERMISSION.operate, farmScoped: true };

  app.get(
    '/api/minerv2/agentSubArea/list',
    {
      config: areaView,
      schema: {
        tags,
        description:
          'Every sub-area of the farm, parents first: [{ id (integer ≥ 1), parentId, name, level (1–5), path, childCount, segmentCount, minerCount }] (minerCount: miners whose IP lies in a segment of the area or of its sub-areas).',
        querystring: SubAreaListQuery,
      },
    },
    async (req) => ok(await listSubAreas(db, req.query.agentKey)),
  );

  // `factory` is the spec's name of the same list (spec 3 §3 Miner: "factory (zone)").
  for (const name of ['area', 'factory']) {
    app.get(
      `/api/options/${name}`,
      { config: areaView, schema: { tags, description: 'Sub-areas of the farm for dropdowns and the miner-list filter: [{ text: "Top / Row / Rack", value: id }].', querystring: SubAreaListQuery } },
      async (req) => ok(await subAreaOptions(db, req.query.agentKey)),
    );
  }

  app.post(
    '/api/minerv2/agentSubArea/save',
    {
      config: areaOperate,
      schema: {
        tags,
        description:
          'Creates a sub-area (no id; parentId empty = top level) or renames one (id). name required, at most 50 characters, unique among its siblings. A 6th level is refused ("level limit of 5"); an area holding IP segments cannot get sub-areas (segments belong to leaves).',
        body: SaveSubAreaBody,
      },
    },
    async (req) => ok(await saveSubArea(db, req.body.agentKey, { id: req.body.id, parentId: req.body.parentId, name: req.body.name })),
  );

  app.post(
    '/api/minerv2/agentSubArea/move',
    {
      config: areaOperate,
      schema: {
        tags,
        description: 'Moves a sub-area with its sub-areas under parentId (empty = top level). Refused when the deepest moved area would be a 6th level, when the target is the area itself or one of its sub-areas, or holds IP segments.',
        body: MoveSubAreaBody,
      },
    },
    async (req) => {
      await moveSubArea(db, req.body.agentKey, req.body.id, req.body.parentId ?? null);
      return ok(null);
    },
  );

  app.post(
    '/api/minerv2/agentSubArea/delete',
    {
      config: areaOperate,
      schema: { tags, description: 'Deletes a sub-area without sub-areas ("delete sub-levels first" otherwise) and its IP segments; answers { segments } removed.', body: DeleteSubAreaBody },
    },
    async (req) => ok(await deleteSubArea(db, req.body.agentKey, req.body.id)),
  );

  app.get(
    '/api/minerv2/agentSubIp/list',
    {
      config: ipView,
      schema: {
        tags,
        description: 'Paged IP segments of the farm, or of one area and its sub-areas (areaId), by address: { list: [{ id, areaId, areaPath, segment, ipBegin, ipEnd, amount, remark, minerCount, createdAt }], total, curPage, pageSize }.',
        querystring: SubIpListQuery,
      },
    },
    async (req) => ok(await listSubIps(db, req.query.agentKey, { areaId: req.query.areaId, page: req.query.page, pageSize: req.query.pageSize })),
  );

  app.post(
    '/api/minerv2/agentSubIp/save',
    {
      config: ipOperate,
      schema: {
        tags,
        description:
          'Adds IP segments to a leaf sub-area: segments one per line, each a.b.c.d/n (n 16–32), one address or begin-end (at most 65,536 addresses); at most 500 lines. With id: replaces that segment (one line). All or nothing: a bad line or an overlap with another segment of the farm saves none (data.fields.segments names each line).',
        body: SaveSubIpBody,
      },
    },
    async (req) => {
      const t: Translate = (key, vars) => translate(req.locale, key, vars);
      const { agentKey, id, areaId, segments, remark } = req.body;
      return ok(await saveSubIps(db, agentKey, { id, areaId, segments, remark }, t));
    },
  );

  app.post(
    '/api/minerv2/agentSubIp/delete',
    { config: ipOperate, schema: { tags, description: 'ids: one or several comma-joined segment ids; all or nothing (an id of another farm deletes none: 404).', body: DeleteSubIpBody } },
    async (req) => ok({ deleted: await deleteSubIps(db, req.body.agentKey, req.body.ids) }),
  );
}
