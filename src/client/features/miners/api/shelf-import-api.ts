/** Batch on/off shelf from a file (/setting/agent/online): upload, the checked rows, apply. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, postFarmFile } from '@client/lib/api-client';
import type { IpListUploadResult } from '@shared/schemas/batch-operations';
import type { ShelfAction, ShelfImportApplyResult, ShelfImportRowsPage, ShelfOutcome } from '@shared/schemas/shelf-import';
import { recordKeys } from './miner-records-api';
import { batchKeys } from './batch-api';
import { minerKeys } from './miners-api';

const shelfKeys = {
  all: ['shelf-import'] as const,
  rows: (agentKey: string, fileId: string, action: ShelfAction, outcome: ShelfOutcome | null, page: number, pageSize: number) =>
    ['shelf-import', agentKey, fileId, action, outcome, page, pageSize] as const,
};

export function uploadShelfList(agentKey: string, file: File): Promise<IpListUploadResult> {
  return postFarmFile<IpListUploadResult>('/api/miner/shelfImport/upload', agentKey, file);
}

export function useShelfImportRows(agentKey: string, fileId: string | null, action: ShelfAction, outcome: ShelfOutcome | null, page: number, pageSize: number) {
  return useQuery({
    queryKey: shelfKeys.rows(agentKey, fileId ?? '', action, outcome, page, pageSize),
    queryFn: ({ signal }) =>
      api.get<ShelfImportRowsPage>('/api/miner/shelfImport/rows', { agentKey, fileId: fileId ?? '', action, outcome: outcome ?? undefined, page, pageSize }, { signal }),
    enabled: fileId !== null,
    placeholderData: keepPreviousData,
  });
}

export function useApplyShelfImport(agentKey: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { fileId: string; action: ShelfAction; includeSnMismatch: boolean; idempotencyKey: string }) =>
      api.post<ShelfImportApplyResult>(
        '/api/miner/shelfImport/apply',
        { agentKey, fileId: input.fileId, action: input.action, includeSnMismatch: input.includeSnMismatch },
        { as: 'json', idempotencyKey: input.idempotencyKey },
      ),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: shelfKeys.all });
      await qc.invalidateQueries({ queryKey: recordKeys.offShelfAll });
      await qc.invalidateQueries({ queryKey: minerKeys.all });
      await qc.invalidateQueries({ queryKey: batchKeys.all });
    },
  });
}
