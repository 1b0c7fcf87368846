/** Live progress of one batch: polls batchProgress every 2 s until done (BatchProgressView shows it). */
import { BatchProgressView } from '@client/components/batch-progress-view';
import { useBatchProgress } from '../api/batch-api';

export function BatchProgressPanel({ agentKey, taskId }: { agentKey: string; taskId: string }) {
  return <BatchProgressView query={useBatchProgress(agentKey, taskId)} />;
}
