import { ERROR, type ErrorName } from '@shared/errors';

/** A failure with a known envelope code; the message key is translated by the error handler. */
export class AppError extends Error {
  readonly code: number | string;
  readonly status: number;
  constructor(
    readonly errorName: ErrorName,
    readonly vars: Record<string, string | number> = {},
    readonly data: unknown = null,
  ) {
    super(errorName);
    this.code = ERROR[errorName].code;
    this.status = ERROR[errorName].status;
  }
}

/** A form error on one field: message is an `errors:` key. */
export function fieldError(field: string, key: string, errorName: ErrorName = 'validation'): AppError {
  return new AppError(errorName, {}, { fields: { [field]: key } });
}
