/** Form helpers of the scan IP dialogs: validation with the shared schema, batch-error formatting. */
import type { TFunction } from 'i18next';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { ScanIpRangeForm, type ScanIpLineError, type ScanIpRange } from '@shared/schemas/scan-ip';

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
