/** Form helpers of the scan IP dialogs: validation with the shared schema, batch-error formatting. */
import type { TFunction } from 'i18next';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { ScanIpRangeForm, findOverlap, ipv4ToNumber, type ParsedScanIpLine, type ScanIpLineError, type ScanIpRange } from '@shared/schemas/scan-ip';

export interface ScanIpFormValues {
  ipBegin: string;
  ipEnd: string;
  remark: string;
}

export function rangeToFormValues(range: ScanIpRange | undefined): ScanIpFormValues {
  return range ? { ipBegin: range.ipBegin, ipEnd: range.ipEnd, remark: range.remark } : { ipBegin: '', ipEnd: '', remark: '' };
}

/** Field → i18n key of namespace `errors` (spec 2 §5 rules, the server's own schema); first problem wins. */
export function validateScanIpForm(values: ScanIpFormValues): Record<string, string> {
  const errors = zod4Resolver(ScanIpRangeForm, { errorPriority: 'first' })({ ...values });
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, String(v)]));
}

/** "Line 3: Enter a correct IP address", in the UI language. */
export function formatLineError(t: TFunction, error: ScanIpLineError): string {
  const message = t(`errors:${error.key}`, error.vars ?? {});
  return error.line > 0 ? t('errors:validation.scanIpLine', { line: error.line, message }) : message;
}

/**
 * The batch lines that overlap a range the farm already has (the server refuses them too, all or nothing): shown with
 * the line's other problems at once, instead of after a round trip that reports only these.
 */
export function overlapsWithSaved(lines: readonly ParsedScanIpLine[], saved: readonly ScanIpRange[]): ScanIpLineError[] {
  const bounds = saved.flatMap((r) => {
    const begin = ipv4ToNumber(r.ipBegin);
    const end = ipv4ToNumber(r.ipEnd);
    return begin === null || end === null ? [] : [{ begin, end, range: r }];
  });
  return lines.flatMap((line) => {
    const other = findOverlap(line, bounds);
    return other ? [{ line: line.line, key: 'validation.scanIpOverlap', vars: { sortNo: other.range.sortNo, ipBegin: other.range.ipBegin, ipEnd: other.range.ipEnd } }] : [];
  });
}
