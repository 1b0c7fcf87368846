/**
 * Hosting customers (spec 2 §2, §5, §7): paged list, save, delete. Reading needs 61000, writing 61500; all
 * farm-scoped. hostingResult travels as a JSON array (a JSON string in form bodies).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AgentKeyQuery, PageQuery } from '@shared/schemas/common';
import { CUSTOMER_PERMISSION, DeleteCustomerBody, SaveCustomerBody } from '@shared/schemas/customer';
import { deleteCustomer, listCustomers, saveCustomer } from '../domains/customers-pools/customers.repository';
import { ok } from '../plugins/envelope';

export async function customerRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['customers'];
  const view = { permission: CUSTOMER_PERMISSION.view, farmScoped: true };
  const operate = { permission: CUSTOMER_PERMISSION.operate, farmScoped: true };

  app.get(
    '/api/customer/list',
    {
      config: view,
      schema: {
        tags,
        description: 'Customers of the farm, newest first: data { list, total, curPage, pageSize } (dropdowns ask page 1, pageSize 1000). electricPrice is a decimal string with the currency\'s decimals.',
        querystring: AgentKeyQuery.extend(PageQuery.shape),
      },
    },
    async (req) => ok(await listCustomers(db, req.query.agentKey, req.query.page, req.query.pageSize)),
  );

  app.post(
    '/api/customer/save',
    {
      config: operate,
      schema: {
        tags,
        description:
          'Creates (no id) or edits a customer. name and contract (contact person) required, ≤ 50. email and mobile are comma-joined lists: at least one contact, at most two, e-mails well formed, mobiles 7–11 digits; areaCode is aligned with the mobiles (default 86). electricUnit USD (min 0.0001, 4 decimals) or CNY (min 0.01, 2 decimals). hostingResult: JSON array of { type, coinType, hashRate > 0, hashRateUnit (default TH/s), minerModel, minerNum integer ≥ 0 }, at least one row.',
        body: SaveCustomerBody,
      },
    },
    async (req) => ok(await saveCustomer(db, req.body)),
  );

  app.post(
    '/api/customer/delete',
    { config: operate, schema: { tags, description: 'Deletes a customer of the farm; one still used by a pool group is refused (409).', body: DeleteCustomerBody } },
    async (req) => {
      await deleteCustomer(db, req.body.agentKey, req.body.id);
      return ok(null);
    },
  );
}
