/**
 * Pool settings of a farm (spec 2 §2, §5, §7): sub-accounts with the observer-link test, pool groups, the pool
 * whitelist (fed to the agent through GET /api/agent-uplink/config) and the option lists of these dialogs.
 * Reading needs 81000, writing 81500; all farm-scoped except the fixed vocabularies.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CURRENCIES, PRICE_RULES } from '@shared/format/number';
import { KNOWN_MINER_MODELS } from '@shared/miner-models';
import { AREA_CODES, COIN_TYPES, HOSTED_OBSERVER_HOSTS, HOSTED_REQUIRED_PARAMS, OBSERVER_TEST_EXEMPT_POOLS, OBSERVER_TEST_VALID_MS, POOL_NAMES, POOL_URL_PREFIXES } from '@shared/pool-sites';
import { AgentKeyQuery, PageQuery } from '@shared/schemas/common';
import { CUSTOMER_PERMISSION } from '@shared/schemas/customer';
import {
  DeleteByIdBody,
  DeletePoolGroupBody,
  HostingInfoQuery,
  ObserverTestQuery,
  POOL_PERMISSION,
  type ObserverTestResult,
  SavePoolGroupBody,
  SaveSubAccountBody,
  SaveWhitelistBody,
} from '@shared/schemas/pool';
import { customerOptions } from '../domains/customers-pools/customers.repository';
import { probeObserver } from '../domains/customers-pools/observer-probe';
import {
  deletePoolGroup,
  deleteSubAccount,
  deleteWhitelist,
  hostingInfo,
  listPoolGroups,
  listSubAccounts,
  listWhitelist,
  poolNameOptions,
  recordObserverTest,
  saveSubAccount,
  savePoolGroup,
  saveWhitelist,
  subAccountOptions,
} from '../domains/customers-pools/pools.repository';
import { translate } from '../i18n';
import { ok } from '../plugins/envelope';
import { createSecretBox } from '../secret-box';

/** Distinct model names of every model the agent recognises, in catalogue order (simulated ones first). */
const MODEL_NAMES = [...new Set(KNOWN_MINER_MODELS.map((m) => `${m.make} ${m.model}`))];

export async function poolRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const box = createSecretBox(app.config);
  const tags = ['pool settings'];
  const view = { permission: POOL_PERMISSION.view, farmScoped: true };
  const operate = { permission: POOL_PERMISSION.operate, farmScoped: true };
  const pagedFarm = AgentKeyQuery.extend(PageQuery.shape);

  // ─── Sub-accounts ───

  app.get(
    '/api/subAccountV2/pagelist',
    { config: view, schema: { tags, description: 'Sub-accounts of the farm, newest first: { list, total, curPage, pageSize }. The password is never answered, only hasPassword.', querystring: pagedFarm } },
    async (req) => ok(await listSubAccounts(db, req.query.agentKey, req.query.page, req.query.pageSize)),
  );

  app.get('/api/subAccountV2/coinType', { config: { permission: 'authenticated' }, schema: { tags, description: 'Coins a sub-account can mine: [{ text, value }].' } }, async () =>
    ok(COIN_TYPES.map((c) => ({ text: c, value: c }))),
  );

  app.get(
    '/api/subAccountV2/hosting',
    {
      config: { permission: 'authenticated' },
      schema: {
        tags,
        description:
          'Observer-link rules for the dialog: hostedSites (links on these hosts, or on a host with a label containing "hosted", need the query parameters in requiredParams), exemptPools (pool names saved without an observer test) and testValidSeconds (how long a successful test allows saving).',
      },
    },
    async () => ok({ hostedSites: HOSTED_OBSERVER_HOSTS, requiredParams: HOSTED_REQUIRED_PARAMS, exemptPools: OBSERVER_TEST_EXEMPT_POOLS, testValidSeconds: OBSERVER_TEST_VALID_MS / 1000 }),
  );

  app.get(
    '/api/subAccountV2/testObserverUrl',
    {
      config: view,
      schema: {
        tags,
        description:
          'Fetches the observer link server-side (10 s, redirects followed) and reads the hashrate from its JSON or HTML. data: { status: 0, hashP, unit } on success — remembered for 10 minutes so the sub-account with this link and coin can be saved — or { status: 1, msg } (connection failed). A bad link (missing, not http(s), sensitive word, hosted site without access_key and prefix) or a missing coin is refused with 400.',
        querystring: ObserverTestQuery,
      },
    },
    async (req): Promise<{ code: 0; msg: 'success'; data: ObserverTestResult }> => {
      const { agentKey, observerUrl, coinType } = req.query;
      const result = await probeObserver(observerUrl, coinType, { allowPrivate: app.config.observerAllowPrivate });
      if (!result.ok) {
        req.log.info({ agentKey, reason: result.reason }, 'observer test failed');
        return ok({ status: 1, hashP: null, unit: null, msg: translate(req.locale, 'validation.observerConnectFailed') });
      }
      await recordObserverTest(db, agentKey, observerUrl, coinType);
      return ok({ status: 0, hashP: result.hashP, unit: result.unit, msg: translate(req.locale, 'validation.observerConnectOk') });
    },
  );

  app.post(
    '/api/subAccountV2/save',
    {
      config: operate,
      schema: {
        tags,
        description:
          'Creates (no id) or edits a sub-account. accountName, password (on create; empty on edit keeps it), poolName, coinType and observerUrl required. The link and coin must have passed testObserverUrl within 10 minutes, unless the pool is exempt (GET /api/subAccountV2/hosting) or an edit keeps the stored link and coin. The password is stored encrypted (AES-256-GCM).',
        body: SaveSubAccountBody,
      },
    },
    async (req) => ok(await saveSubAccount(db, box, req.body)),
  );

  app.post(
    '/api/subAccountV2/delete',
    { config: operate, schema: { tags, description: 'Deletes a sub-account of the farm; one used by a pool group is refused (409).', body: DeleteByIdBody } },
    async (req) => {
      await deleteSubAccount(db, req.body.agentKey, req.body.id);
      return ok(null);
    },
  );

  // ─── Pool groups ───

  app.get('/api/poolgroup/list', { config: view, schema: { tags, description: 'Pool groups of the farm, newest first (data is an array).', querystring: AgentKeyQuery } }, async (req) =>
    ok(await listPoolGroups(db, req.query.agentKey)),
  );

  app.get(
    '/api/poolgroup/hostingInfo',
    {
      config: view,
      schema: {
        tags,
        description: "The customer's hosting rows (merged by type and hashrate) with `available`: miners not yet in another pool group of the customer (poolGroupId: the group being edited, not counted).",
        querystring: HostingInfoQuery,
      },
    },
    async (req) => ok(await hostingInfo(db, req.query.agentKey, req.query.customerId, req.query.poolGroupId)),
  );

  app.post(
    '/api/poolgroup/save',
    {
      config: operate,
      schema: {
        tags,
        description:
          'Creates (no id) or edits a pool group. name, customerId, pool1Url and subAccount1Id required; pool URLs (trimmed) start with stratum+tcp://, stratum+ssl:// or stratum2+tcp:// and contain neither gov nor dhs. poolGroupHosting: JSON array of rows matching the customer\'s hosting by type and hashRate, no pair twice, minerNum ≤ available. poolNUser defaults to the sub-account\'s name.',
        body: SavePoolGroupBody,
      },
    },
    async (req) => ok(await savePoolGroup(db, req.body)),
  );

  app.post('/api/poolgroup/delete', { config: operate, schema: { tags, description: 'Deletes a pool group of the farm.', body: DeletePoolGroupBody } }, async (req) => {
    await deletePoolGroup(db, req.body.agentKey, req.body.poolGroupId);
    return ok(null);
  });

  // ─── Whitelist ───

  app.get('/api/poolWhitelist/list', { config: view, schema: { tags, description: 'Whitelist entries of the farm (data is an array); poolUrls comma-joined, 1 to 3 pools.', querystring: AgentKeyQuery } }, async (req) =>
    ok(await listWhitelist(db, req.query.agentKey)),
  );

  app.post(
    '/api/poolWhitelist/save',
    {
      config: operate,
      schema: {
        tags,
        description: 'Creates (no id) or edits an entry: poolUrls comma-joined, 1 to 3 distinct well-formed pool URLs. The agent receives the entries as AgentConfig.poolWhitelist.',
        body: SaveWhitelistBody,
      },
    },
    async (req) => ok(await saveWhitelist(db, req.body.agentKey, req.body.id, req.body.poolUrls)),
  );

  app.post('/api/poolWhitelist/delete', { config: operate, schema: { tags, description: 'Deletes a whitelist entry of the farm.', body: DeleteByIdBody } }, async (req) => {
    await deleteWhitelist(db, req.body.agentKey, req.body.id);
    return ok(null);
  });

  // ─── Option lists ───

  const fixed = { permission: 'authenticated' as const };
  for (const name of ['coinType', 'coinList']) {
    app.get(`/api/options/${name}`, { config: fixed, schema: { tags, description: 'Coins: [{ text, value }].' } }, async () => ok(COIN_TYPES.map((c) => ({ text: c, value: c }))));
  }
  app.get('/api/options/currency', { config: fixed, schema: { tags, description: 'Electricity currencies with their price unit.' } }, async () =>
    ok(CURRENCIES.map((c) => ({ text: `${c} (${PRICE_RULES[c].unit})`, value: c }))),
  );
  app.get('/api/options/areaCode', { config: fixed, schema: { tags, description: 'Telephone country codes, 86 first (the default).' } }, async () =>
    ok(AREA_CODES.map((a) => ({ text: `+${a.code} ${a.country}`, value: a.code }))),
  );
  app.get('/api/options/minerModel', { config: fixed, schema: { tags, description: 'Miner models of the catalogue (src/shared/miner-models.ts).' } }, async () =>
    ok(MODEL_NAMES.map((m) => ({ text: m, value: m }))),
  );
  app.get(
    '/api/options/customer',
    { config: { permission: CUSTOMER_PERMISSION.view, farmScoped: true }, schema: { tags, description: 'Customers of the farm: text name, value id.', querystring: AgentKeyQuery } },
    async (req) => ok(await customerOptions(db, req.query.agentKey)),
  );
  app.get('/api/options/poolName', { config: view, schema: { tags, description: 'Known pools, then other pool names used by the farm.', querystring: AgentKeyQuery } }, async (req) =>
    ok(await poolNameOptions(db, req.query.agentKey, POOL_NAMES)),
  );
  app.get('/api/options/poolAccount', { config: view, schema: { tags, description: 'Sub-accounts of the farm: text "name (pool)", value id.', querystring: AgentKeyQuery } }, async (req) =>
    ok(await subAccountOptions(db, req.query.agentKey, 'id')),
  );
  app.get('/api/options/accountName', { config: view, schema: { tags, description: 'Distinct sub-account names of the farm.', querystring: AgentKeyQuery } }, async (req) =>
    ok(await subAccountOptions(db, req.query.agentKey, 'name')),
  );
  app.get('/api/options/poolPrefix', { config: fixed, schema: { tags, description: 'Accepted pool address prefixes.' } }, async () => ok(POOL_URL_PREFIXES.map((p) => ({ text: p, value: p }))));
}
