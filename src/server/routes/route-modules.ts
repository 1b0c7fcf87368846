import type { FastifyPluginAsync } from 'fastify';
import { accessRoutes } from './access';
import { agentPackageRoutes } from './agent-package';
import { agentUplinkRoutes } from './agent-uplink';
import { approvalRoutes } from './approvals';
import { authRoutes } from './auth';
import { batchOperationRoutes } from './batch-operations';
import { customerRoutes } from './customers';
import { farmRoutes } from './farms';
import { minerLoginRoutes } from './miner-logins';
import { minerNoteRoutes } from './miner-notes';
import { minerRecordRoutes } from './miner-records';
import { minerRoutes } from './miners';
import { notificationRoutes } from './notifications';
import { poolConfigFileRoutes } from './pool-config-file';
import { poolRoutes } from './pools';
import { scanIpRoutes } from './scan-ip';
import { securityRoutes } from './security';
import { subAreaRoutes } from './sub-areas';
import { syncRoutes } from './sync';

/** Every route module, in registration order. */
export const ROUTE_MODULES: FastifyPluginAsync[] = [authRoutes, farmRoutes, accessRoutes, notificationRoutes, agentUplinkRoutes, scanIpRoutes, minerRoutes, batchOperationRoutes, poolConfigFileRoutes, customerRoutes, poolRoutes, minerNoteRoutes, syncRoutes, minerRecordRoutes, subAreaRoutes, approvalRoutes, agentPackageRoutes, securityRoutes, minerLoginRoutes];
