/**
 * Miner monitoring, read side (spec 3 §2, §3, §7): the paged list, its counters, dashboard and model
 * statistics, one miner's detail and history, the farm's hashrate series, the miner dropdowns, and the pool
 * data the batch set-pool dialog fills from (pool groups, sub-accounts). Every call needs the miners menu key
 * (10000) and membership of the farm named by agentKey.
 */
import type { FastifyInstance } from 'fastify';
import { AnalysisIdQuery, AnalysisStartBody } from '@shared/schemas/fault-analysis';
import { analysisResult, analysisStatus, startAnalysis } from '../domains/miners/fault-analysis';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PERMISSION } from '@shared/menu-catalogue';
import { minerLabelOptions } from '@shared/miner-labels';
import { AgentKeyQuery } from '@shared/schemas/common';
import { FarmSeriesQuery, MinerFilterQuery, MinerHistoryQuery, MinerKeyQuery, MinerListQuery } from '@shared/schemas/miner';
import { PoolSubAccountQuery, SUB_ACCOUNT_CHOICES_MAX } from '@shared/schemas/pool';
import { poolGroupChoices, subAccountChoices } from '../domains/customers-pools/pools.repository';
import { findMiners, minerPageJson } from '../domains/miners/find-miners';
import { findMinerId, getMiner } from '../domains/miners/get-miner';
import { FARM_OPTION_NAMES, SPEC_FARM_OPTION_NAMES, farmMinerOptions, fixedMinerOptions, specFarmOptions } from '../domains/miners/miner-options';
import { getFarmSeries, getIndexStat, getMinerHistory, getMinerStat, getModelStats } from '../domains/miners/miner-stats';
import { AppError } from '../errors';
import { ok } from '../plugins/envelope';

const FILTER_DOC =
  'Filters (all optional, combined with AND): status (online | offline | qualified | unqualified | zeroHashrate | cannotStart | illegalPool | abnormalIdeal | sleeping | lowPower, or a count over time: qualified8h | offline24h), ' +
  'faultType (fault label), model, firmware (compile date YYYYMMDD or YYYY-MM-DD, or a firmware version, as /api/options/firmwareVersion gives), ' +
  'pool (part of any pool URL, case-insensitive), workMode, network (online | offline), keyword (IP prefix or part of the SN), errorCode (a code the miner reports now, as /api/options/errorCode gives it), tempChipFrom (°C, -50 to 200: the hottest chip reads at least this). ' +
  'customer (id from /api/options/customer, or the name), subArea (id from /api/options/area: the area and the areas under it, by their IP segments), ' +
  'accident (a type of /api/options/accidentList, or an older free-text mark as written); ' +
  'shelf is accepted for the shelves feature and narrows nothing yet.';

export async function minerRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['miners'];
  const config = { permission: PERMISSION.miners, farmScoped: true };

  app.get(
    '/api/miner/list',
    {
      config,
      schema: {
        tags,
        description: `Paged miners of the farm: data { list, total, curPage, pageSize }. ${FILTER_DOC} sort: a list column key (whitelist), order asc | desc; ties and the default order are by IP (numeric). pageSize 1–1000.`,
        querystring: MinerListQuery,
      },
    },
    // The rows come as JSON text (find-miners.ts, minerRowJson): the envelope is written around them, not serialised again.
    async (req, reply) => reply.type('application/json; charset=utf-8').send(minerPageJson(await findMiners(db, req.query))),
  );

  app.get(
    '/api/miner/stat',
    {
      config,
      schema: {
        tags,
        description: `Counters of the miners matching the filter: total, each state, each fault label (faults), qualified8h (online, and qualified in every hourly sample of the last 8 hours, at least one), offline24h (offline, last reading older than 24 h). ${FILTER_DOC}`,
        querystring: MinerFilterQuery,
      },
    },
    async (req) => {
      const { agentKey, ...filter } = req.query;
      return ok(await getMinerStat(db, agentKey, filter));
    },
  );

  app.get(
    '/api/miner/indexStat',
    {
      config,
      schema: {
        tags,
        description: 'Dashboard figures of the farm now: real (online miners) vs ideal hashrate in GH/s, online rate (online/total %), qualified rate (qualified/online %), temperature max and average of online miners, the five most frequent fault labels.',
        querystring: AgentKeyQuery,
      },
    },
    async (req) => ok(await getIndexStat(db, req.query.agentKey)),
  );

  app.get(
    '/api/miner/modelstat',
    {
      config,
      schema: { tags, description: 'Per model: count, online, qualified, real hashrate of online miners and ideal hashrate (GH/s); most numerous first.', querystring: AgentKeyQuery },
    },
    async (req) => ok(await getModelStats(db, req.query.agentKey)),
  );

  app.get(
    '/api/miner/detail',
    {
      config,
      schema: { tags, description: 'One miner by IP: every list field plus the full latest snapshot (boards, pools, fans, error codes). 404 when the farm has no such miner.', querystring: MinerKeyQuery },
    },
    async (req) => {
      const miner = await getMiner(db, req.query.agentKey, req.query.ip);
      if (!miner) throw new AppError('notFound');
      return ok(miner);
    },
  );

  app.get(
    '/api/miner/history',
    {
      config,
      schema: {
        tags,
        description: "One miner's history from its hourly samples: range hour = hourly points of the last 24 h, day = daily points of the last 30 days, month = monthly points of the last 12 months. Each point averages real and ideal hashrate (GH/s), the highest temperature and the online share.",
        querystring: MinerHistoryQuery,
      },
    },
    async (req) => {
      const id = await findMinerId(db, req.query.agentKey, req.query.ip);
      if (!id) throw new AppError('notFound');
      return ok(await getMinerHistory(db, id, req.query.range));
    },
  );

  app.get(
    '/api/miner/farmSeries',
    {
      config,
      schema: {
        tags,
        description: "The farm's hashrate series from its per-cycle rows: range hour = one point per minute over the last 24 h, 30d = per hour over 30 days, 1y = per day over a year. Each point averages real and ideal hashrate (GH/s) and the miner counts of its cycles.",
        querystring: FarmSeriesQuery,
      },
    },
    async (req) => ok(await getFarmSeries(db, req.query.agentKey, req.query.range)),
  );

  // Pool data of the batch set-pool dialog: read with the miner list's key, not the pool settings' (81000), so that an
  // operator who may set pools on miners can fill them from what the farm keeps without managing pool settings.
  app.get(
    '/api/minerv2/poolQuery',
    {
      config,
      schema: {
        tags,
        description:
          "The farm's pool groups for the batch set-pool dialog, newest first: [{ id, name, customer (name or null), pools: [{ url, user }] }]. pools: 1–3 in priority order (a slot without an address is left out); user is the group's worker user of that pool, or its sub-account's name.",
        querystring: AgentKeyQuery,
      },
    },
    async (req) => ok(await poolGroupChoices(db, req.query.agentKey)),
  );

  app.get(
    '/api/minerv2/poolSubAccountQuery',
    {
      config,
      schema: {
        tags,
        description: `The farm's sub-accounts for picking a pool's worker user, by account name: [{ id, accountName, poolName, coinType }], at most ${SUB_ACCOUNT_CHOICES_MAX}. keyword (optional, up to 64 characters): part of the account or pool name, case-insensitive. Never the password.`,
        querystring: PoolSubAccountQuery,
      },
    },
    async (req) => ok(await subAccountChoices(db, req.query.agentKey, req.query.keyword)),
  );

  // Fixed vocabularies: named in the request's language (header I18N). `faultReason` is the spec's other name of the
  // fault labels (the list's "fault reason" column).
  for (const [path, name] of [['status', 'status'], ['faultType', 'faultType'], ['faultReason', 'faultType'], ['workMode', 'workMode'], ['network', 'network']] as const) {
    app.get(
      `/api/options/${path}`,
      { config: { permission: PERMISSION.miners }, schema: { tags, description: `Miner ${name} values: [{ text, value }] with text in the request's language.` } },
      async (req) => ok(fixedMinerOptions(req.locale, name)),
    );
  }

  app.post(
    '/api/ai/analysis',
    {
      config,
      schema: {
        tags,
        description:
          "Fault analysis of one miner (agentKey, ip): rules a technician applies to its latest reading and its last 24 hours (hashboards, chips, heat, fans, pools, hashrate, hardware errors, firmware errors, stability). Answers { id, status }; then GET /api/ai/status and /api/ai/result. 404 when the farm has no miner at that IP.",
        body: AnalysisStartBody,
      },
    },
    async (req) => ok(await startAnalysis(db, req.farmKey!, req.body.ip, req.user!.id)),
  );

  app.get(
    '/api/ai/status',
    { config, schema: { tags, description: 'Status of a fault analysis: { id, status: pending | running | done | failed }.', querystring: AnalysisIdQuery } },
    async (req) => ok(await analysisStatus(db, req.query.agentKey, req.query.id)),
  );

  app.get(
    '/api/ai/result',
    {
      config,
      schema: {
        tags,
        description:
          "Result of a fault analysis: { id, status, ip, sn, model, reason, suggestion (the most serious finding's), findings: [{ code, severity: critical | warning | info, params, reason, suggestion }], readingAt, analysedAt }, texts in the request's language.",
        querystring: AnalysisIdQuery,
      },
    },
    async (req) => ok(await analysisResult(db, req.query.agentKey, req.query.id, req.locale)),
  );

  app.get(
    '/api/options/repairStatus',
    {
      config: { permission: 'authenticated' as const },
      schema: { tags, description: "Repair statuses of an off-shelf miner (off-shelf maintenance): [{ text, value }], text in the request's language." },
    },
    async (req) => ok(minerLabelOptions(req.locale, 'repairStatus')),
  );

  app.get(
    '/api/options/accidentList',
    {
      config: { permission: PERMISSION.miners },
      schema: { tags, description: "Accident / exception types a miner can be marked with (batchAccident): [{ text, value }], text in the request's language." },
    },
    async (req) => ok(minerLabelOptions(req.locale, 'accident')),
  );

  for (const name of SPEC_FARM_OPTION_NAMES) {
    const what = { compileTime: 'firmware build dates (text YYYY-MM-DD, value YYYYMMDD: the firmware filter), newest first', rateIdeal: 'ideal hashrates (value GH/s), highest first' }[name];
    app.get(
      `/api/options/${name}`,
      { config, schema: { tags, description: `Distinct ${what} of the farm's miners: [{ text, value }].`, querystring: AgentKeyQuery } },
      async (req) => ok(await specFarmOptions(db, req.query.agentKey, name)),
    );
  }

  for (const name of FARM_OPTION_NAMES) {
    const what = {
      model: 'models',
      firmwareVersion: 'firmware (compile date YYYYMMDD where known, else the version string; text YYYY-MM-DD)',
      poolUrl: 'pool URLs',
      errorCode: "error codes reported now (value the code, text the code and its message; the agent's own negative codes named in the request's language; lowest first)",
    }[name];
    app.get(
      `/api/options/${name}`,
      { config, schema: { tags, description: `Distinct ${what} of the farm's miners: [{ text, value }].`, querystring: AgentKeyQuery } },
      async (req) => ok(await farmMinerOptions(db, req.query.agentKey, name, req.locale)),
    );
  }
}
