/**
 * Export of selected miners (spec 3 §2 "export, which requires selected data"): the visible columns, with
 * their localised headers, as CSV (PapaParse, UTF-8 with BOM so spreadsheet programs read Chinese and
 * Cyrillic) or Excel (write-excel-file, loaded only when an Excel export is asked for).
 */
import Papa from 'papaparse';
import type { MinerRow } from '@shared/schemas/miner';
import type { ExportCell, MinerColumn } from './miner-columns';
import { downloadBlob } from '@client/lib/download-blob';
import { importWithRetry } from '@client/lib/import-retry';

export type ExportFormat = 'csv' | 'xlsx';

export interface ExportTable {
  headers: string[];
  rows: ExportCell[][];
}

export function exportTable(columns: readonly MinerColumn[], rows: readonly MinerRow[]): ExportTable {
  return {
    headers: columns.map((c) => c.title),
    rows: rows.map((r) => columns.map((c) => c.exportValue(r))),
  };
}

export function toCsv(table: ExportTable): string {
  return `\ufeff${Papa.unparse({ fields: table.headers, data: table.rows.map((r) => r.map((v) => v ?? '')) })}`;
}

export async function toXlsx(table: ExportTable, sheet: string): Promise<Blob> {
  const { default: writeXlsxFile } = await importWithRetry(() => import('write-excel-file/browser'));
  const header = table.headers.map((value) => ({ value, fontWeight: 'bold' as const }));
  const widths = table.headers.map((h, i) => ({
    width: Math.min(60, Math.max(10, h.length + 2, ...table.rows.slice(0, 200).map((r) => String(r[i] ?? '').length + 2))),
  }));
  return writeXlsxFile([header, ...table.rows], { sheet: sheet.slice(0, 31), columns: widths }).toBlob();
}

export function exportFileName(agentKey: string, format: ExportFormat, now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}`;
  return `miners-${agentKey}-${stamp}.${format}`;
}

export async function exportMiners(format: ExportFormat, columns: readonly MinerColumn[], rows: readonly MinerRow[], agentKey: string, sheet: string): Promise<void> {
  const table = exportTable(columns, rows);
  const blob = format === 'csv' ? new Blob([toCsv(table)], { type: 'text/csv;charset=utf-8' }) : await toXlsx(table, sheet);
  downloadBlob(blob, exportFileName(agentKey, format));
}
