/** Farms (the spec's "agents"): list, create, edit, delete, status, region, host info, agent secret. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PERMISSION } from '@shared/menu-catalogue';
import { AgentKeyQuery, PageQuery } from '@shared/schemas/common';
import { AgentSettingsBody, type AgentSettings, CreateFarmBody, FarmKeyBody, type RegionInfo, UpdateFarmBody, UpdateRegionBody } from '@shared/schemas/farm';
import { REGION_LOCKED_AGENT_KEY, type Region } from '@shared/validation';
import type { FarmRecord, UserRecord } from '../db/schema';
import { findFarmsPage, getFarm, isFarmOnline, toFarmInfo, toFarmRow, toHostInfo, toNucStatus, visibleFarms } from '../domains/farms/farms.repository';
import { AppError, fieldError } from '../errors';
import { ok } from '../plugins/envelope';
import { newAgentSecret, sha256 } from '../security';
import { farmPower } from '../domains/farms/farm-power';

const FarmListQuery = PageQuery.extend({ keyword: z.string().trim().max(100).default('') });

/** Spec 1 §4: the special key is locked to "me"; a set region of an online farm changes only with the override (administrators). */
export function regionInfo(farm: FarmRecord, user: UserRecord): RegionInfo {
  if (farm.agent_key === REGION_LOCKED_AGENT_KEY) return { region: 'me', read: true, canChange: false };
  const region = farm.region as Region;
  const locked = region !== 'auto' && isFarmOnline(farm) && !user.is_admin;
  return { region, read: farm.region_read, canChange: !locked };
}

export async function farmRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['farms'];
  const mustGet = async (key: string) => {
    const f = await getFarm(db, key);
    if (!f) throw new AppError('notFound');
    return f;
  };

  // `adminagent`: the spec's name of the farms a user may manage (spec 3 §7 dropdowns); the same list.
  for (const name of ['agent', 'adminagent']) {
    app.get(`/api/options/${name}`, { config: { permission: 'authenticated' }, schema: { tags, description: "The caller's farms: [{ text: name, value: agentKey }]." } }, async (req) => {
      const rows = await visibleFarms(db, req.user!).select(['agent_key', 'agent_name']).orderBy('created_at').orderBy('agent_key').execute();
      return ok(rows.map((r) => ({ text: r.agent_name, value: r.agent_key })));
    });
  }

  app.get('/api/agent/pagelist', { config: { permission: PERMISSION.farms }, schema: { tags, querystring: FarmListQuery } }, async (req) => {
    const { list, total } = await findFarmsPage(db, req.user!, req.query);
    return ok({ list: list.map(toFarmRow), total, curPage: req.query.page, pageSize: req.query.pageSize });
  });

  app.get('/api/agent/info', { config: { permission: 'authenticated', farmScoped: true }, schema: { tags, querystring: AgentKeyQuery } }, async (req) =>
    ok(toFarmInfo(await mustGet(req.query.agentKey))),
  );

  app.get('/api/agent/status', { config: { permission: 'authenticated', farmScoped: true }, schema: { tags, querystring: AgentKeyQuery } }, async (req) =>
    ok(toNucStatus(await mustGet(req.query.agentKey))),
  );

  app.get('/api/minerv2/isSelfManage', { config: { permission: 'authenticated', farmScoped: true }, schema: { tags, querystring: AgentKeyQuery } }, async (req) =>
    ok((await mustGet(req.query.agentKey)).self_managed),
  );

  app.post('/api/agent/createv2', { config: { permission: PERMISSION.farmOperations, unkeptFields: ['secret'] }, schema: { tags, body: CreateFarmBody } }, async (req) => {
    const b = req.body;
    const secret = newAgentSecret();
    const created = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('farms')
        .values({
          agent_key: b.agentKey,
          agent_name: b.agentName,
          notice_emails: b.noticeEmails,
          agent_addr: b.agentAddr,
          self_managed: b.selfManaged,
          secret_hash: sha256(secret),
          created_by: req.user!.id,
          host_info: null,
        })
        .onConflict((oc) => oc.column('agent_key').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!row) throw fieldError('agentKey', 'agentKeyTaken', 'agentKeyTaken');
      await trx.insertInto('user_farms').values({ user_id: req.user!.id, agent_key: row.agent_key }).onConflict((oc) => oc.doNothing()).execute();
      return row;
    });
    req.log.info({ agentKey: created.agent_key }, 'farm created');
    return ok({ agentKey: created.agent_key, secret });
  });

  app.post('/api/agent/updatev2', { config: { permission: PERMISSION.farmOperations, farmScoped: true }, schema: { tags, body: UpdateFarmBody } }, async (req) => {
    const b = req.body;
    const row = await db
      .updateTable('farms')
      .set({
        agent_name: b.agentName,
        notice_emails: b.noticeEmails,
        agent_addr: b.agentAddr,
        ...(b.selfManaged === undefined ? {} : { self_managed: b.selfManaged }),
        updated_at: new Date(),
      })
      .where('agent_key', '=', b.agentKey)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new AppError('notFound');
    return ok(toFarmInfo(row));
  });

  app.post('/api/agent/deletev2', { config: { permission: PERMISSION.farmOperations, farmScoped: true }, schema: { tags, body: FarmKeyBody } }, async (req) => {
    await db.deleteFrom('farms').where('agent_key', '=', req.body.agentKey).execute();
    req.log.info({ agentKey: req.body.agentKey }, 'farm deleted');
    return ok(null);
  });

  app.post('/api/agent/rotateSecret', { config: { permission: PERMISSION.farmOperations, farmScoped: true, unkeptFields: ['secret'] }, schema: { tags, body: FarmKeyBody } }, async (req) => {
    const secret = newAgentSecret();
    await db.updateTable('farms').set({ secret_hash: sha256(secret), updated_at: new Date() }).where('agent_key', '=', req.body.agentKey).execute();
    return ok({ agentKey: req.body.agentKey, secret });
  });

  app.get('/api/agent/getAgentRegion', { config: { permission: 'authenticated', farmScoped: true }, schema: { tags, querystring: AgentKeyQuery } }, async (req) =>
    ok(regionInfo(await mustGet(req.query.agentKey), req.user!)),
  );

  app.post('/api/agent/updateAgentRegion', { config: { permission: 'authenticated', farmScoped: true }, schema: { tags, body: UpdateRegionBody } }, async (req) => {
    const farm = await mustGet(req.body.agentKey);
    if (!regionInfo(farm, req.user!).canChange) throw new AppError('regionLocked');
    const row = await db
      .updateTable('farms')
      .set({ region: req.body.region, region_read: req.body.read === 1, updated_at: new Date() })
      .where('agent_key', '=', farm.agent_key)
      .returningAll()
      .executeTakeFirstOrThrow();
    return ok(regionInfo(row, req.user!));
  });

  app.get('/api/agent/hostInfo', { config: { permission: PERMISSION.hostInfo }, schema: { tags, querystring: FarmListQuery } }, async (req) => {
    const { list, total } = await findFarmsPage(db, req.user!, req.query);
    return ok({ list: list.map(toHostInfo), total, curPage: req.query.page, pageSize: req.query.pageSize });
  });

  app.get('/api/agent/hostInfo/detail', { config: { permission: PERMISSION.hostInfo, farmScoped: true }, schema: { tags, querystring: AgentKeyQuery } }, async (req) =>
    ok(toHostInfo(await mustGet(req.query.agentKey))),
  );

  app.get(
    '/api/agent/power',
    {
      config: { permission: PERMISSION.farmSettings, farmScoped: true },
      schema: {
        tags,
        description: "The farm's power: powerLimitKw (setAgentPower; null = none), powerNowKw (sum of the power its online miners on shelf report, kW; null when none reports), onlineMiners, reportingMiners.",
        querystring: AgentKeyQuery,
      },
    },
    async (req) => ok(await farmPower(db, req.query.agentKey, (await mustGet(req.query.agentKey)).agent_settings)),
  );

  app.get('/api/agent/agentSettings', { config: { permission: PERMISSION.farmSettings, farmScoped: true }, schema: { tags, querystring: AgentKeyQuery } }, async (req) =>
    ok(toAgentSettings((await mustGet(req.query.agentKey)).agent_settings)),
  );

  app.post('/api/agent/updateAgentSettings', { config: { permission: PERMISSION.farmSettingsOperations, farmScoped: true }, schema: { tags, body: AgentSettingsBody } }, async (req) => {
    const { agentKey, rpcPort, webPort, whatsminerV3Port, sshPort, packetSize, pauseMs, ...rest } = req.body;
    const stored: Record<string, unknown> = {
      ...rest,
      batch: { packetSize, pauseMs, concurrency: Math.min(packetSize, 50) },
      ...(rpcPort || webPort || whatsminerV3Port || sshPort
        ? { ports: { rpc: rpcPort ?? 4028, web: webPort ?? 80, whatsminerV3: whatsminerV3Port ?? 4433, ...(sshPort ? { ssh: sshPort } : {}) } }
        : {}),
    };
    // Merge: other settings kept in the same object (e.g. the farm power limit) survive this form.
    const current = (await mustGet(agentKey)).agent_settings;
    const { ports: _oldPorts, ...kept } = current;
    const row = await db
      .updateTable('farms')
      .set({ agent_settings: JSON.stringify({ ...kept, ...stored }), updated_at: new Date() })
      .where('agent_key', '=', agentKey)
      .returningAll()
      .executeTakeFirstOrThrow();
    return ok(toAgentSettings(row.agent_settings));
  });
}

/** Stored agent settings (AgentConfig shape) → the form's flat fields. */
export function toAgentSettings(s: Record<string, unknown>): AgentSettings {
  const batch = (s.batch ?? {}) as { packetSize?: number; pauseMs?: number };
  const ports = s.ports as { rpc: number; web: number; whatsminerV3: number; ssh?: number } | undefined;
  return {
    pollIntervalSec: typeof s.pollIntervalSec === 'number' ? s.pollIntervalSec : 60,
    offlineAfterMissed: typeof s.offlineAfterMissed === 'number' ? s.offlineAfterMissed : 3,
    packetSize: batch.packetSize ?? 50,
    pauseMs: batch.pauseMs ?? 3000,
    ...(ports ? { rpcPort: ports.rpc, webPort: ports.web, whatsminerV3Port: ports.whatsminerV3, ...(ports.ssh ? { sshPort: ports.ssh } : {}) } : {}),
  };
}
