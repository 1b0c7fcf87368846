/**
 * Scan IP ranges (spec 2 §7): the IPv4 ranges the farm's agent scans to find miners. The agent reads them
 * through GET /api/agent-uplink/config. List needs the menu key, writes the operation key; all farm-scoped.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AgentKeyQuery } from '@shared/schemas/common';
import { BatchSaveScanIpBody, DeleteScanIpBody, SCAN_IP_PERMISSION, SaveScanIpBody, parseScanIpList } from '@shared/schemas/scan-ip';
import { deleteScanRanges, formatLineErrors, listScanRanges, saveScanRange, saveScanRangeBatch, type Translate } from '../domains/scan-ip/scan-ip.repository';
import { fieldError } from '../errors';
import { translate } from '../i18n';
import { ok } from '../plugins/envelope';

export async function scanIpRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['scan ip ranges'];
  const view = { permission: SCAN_IP_PERMISSION.view, farmScoped: true };
  const operate = { permission: SCAN_IP_PERMISSION.operate, farmScoped: true };

  app.get(
    '/api/scanip/list',
    {
      config: view,
      schema: { tags, description: 'Every range of the farm, ordered by sortNo; `data` is an array (not paged). amount = addresses in the range.', querystring: AgentKeyQuery },
    },
    async (req) => ok(await listScanRanges(db, req.query.agentKey)),
  );

  app.post(
    '/api/scanip/save',
    {
      config: operate,
      schema: {
        tags,
        description:
          'Creates a range (no scanIpId; appended with the next sortNo) or edits one. Both addresses valid IPv4, begin ≤ end, at most 65,536 addresses, no overlap with another range of the farm. The amount sent is ignored; the answer carries the computed one.',
        body: SaveScanIpBody,
      },
    },
    async (req) => {
      const t: Translate = (key, vars) => translate(req.locale, key, vars);
      const { agentKey, scanIpId, ipBegin, ipEnd, remark } = req.body;
      return ok(await saveScanRange(db, agentKey, { scanIpId, ipBegin, ipEnd, remark }, t));
    },
  );

  app.post(
    '/api/scanip/batchSave',
    {
      config: operate,
      schema: {
        tags,
        description:
          'scanIpList: one `begin-end-remark` per line (remark optional and may contain "-"; blank lines skipped; at most 500 lines). All or nothing: any bad or overlapping line saves none, and data.fields.scanIpList names every bad line ("Line 3: …", one per text line). Answers the created ranges.',
        body: BatchSaveScanIpBody,
      },
    },
    async (req) => {
      const t: Translate = (key, vars) => translate(req.locale, key, vars);
      const parsed = parseScanIpList(req.body.scanIpList);
      if (parsed.errors.length) throw fieldError('scanIpList', formatLineErrors(parsed.errors, t));
      return ok(await saveScanRangeBatch(db, req.body.agentKey, parsed.ranges, t));
    },
  );

  app.post(
    '/api/scanip/delete',
    {
      config: operate,
      schema: {
        tags,
        description: 'scanIpId: one id or several comma-joined (batch delete). All or nothing: an id that is not a range of this farm deletes none (404). The rest are renumbered 1..n.',
        body: DeleteScanIpBody,
      },
    },
    async (req) => ok({ deleted: await deleteScanRanges(db, req.body.agentKey, req.body.scanIpId) }),
  );
}
