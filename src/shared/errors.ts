/**
 * Error codes of the envelope (api-conventions.md). `code` 0 is success; a failure carries a positive
 * code, a message in the request's language (translated from `errors:<key>`) and an HTTP status.
 * 401 is the string "401" on the wire (spec 1 §8).
 */
export const ERROR = {
  badRequest: { code: 400, status: 400, key: 'badRequest' },
  validation: { code: 1001, status: 400, key: 'validationFailed' },
  unauthorized: { code: '401', status: 401, key: 'unauthorized' },
  forbidden: { code: 403, status: 403, key: 'forbidden' },
  notMember: { code: 4031, status: 403, key: 'notMember' },
  notFound: { code: 404, status: 404, key: 'notFound' },
  conflict: { code: 409, status: 409, key: 'conflict' },
  idempotencyInFlight: { code: 4091, status: 409, key: 'idempotencyInFlight' },
  idempotencyMismatch: { code: 422, status: 422, key: 'idempotencyMismatch' },
  tooManyRequests: { code: 429, status: 429, key: 'tooManyRequests' },
  csrf: { code: 4032, status: 403, key: 'csrf' },
  server: { code: 500, status: 500, key: 'server' },
  wrongCredentials: { code: 1002, status: 400, key: 'wrongCredentials' },
  setupDone: { code: 1003, status: 409, key: 'setupDone' },
  setupNeeded: { code: 1004, status: 409, key: 'setupNeeded' },
  agentKeyTaken: { code: 1005, status: 409, key: 'agentKeyTaken' },
  userTaken: { code: 1006, status: 409, key: 'userTaken' },
  wrongOldPassword: { code: 1007, status: 400, key: 'wrongOldPassword' },
  roleInUse: { code: 1008, status: 409, key: 'roleInUse' },
  cannotDeleteSelf: { code: 1009, status: 400, key: 'cannotDeleteSelf' },
  regionLocked: { code: 1010, status: 403, key: 'regionLocked' },
  userDisabled: { code: 1011, status: 403, key: 'userDisabled' },
  lastAdmin: { code: 1012, status: 400, key: 'lastAdmin' },
  adminOnly: { code: 1013, status: 403, key: 'adminOnly' },
  codeRequired: { code: 1020, status: 400, key: 'codeRequired' },
  codeWrong: { code: 1021, status: 400, key: 'codeWrong' },
  smsAreaUnsupported: { code: 1022, status: 400, key: 'smsAreaUnsupported' },
  emailNotBound: { code: 1023, status: 400, key: 'emailNotBound' },
  mobileNotBound: { code: 1024, status: 400, key: 'mobileNotBound' },
  mailUnavailable: { code: 1025, status: 503, key: 'mailUnavailable' },
  smsUnavailable: { code: 1026, status: 503, key: 'smsUnavailable' },
  unsupportedFileFormat: { code: 1027, status: 400, key: 'unsupportedFileFormat' },
  /** The pool configuration file's formats (it may also be CSV): the same code as unsupportedFileFormat. */
  unsupportedPoolConfigFormat: { code: 1027, status: 400, key: 'unsupportedPoolConfigFormat' },
  tooManyRows: { code: 1028, status: 400, key: 'tooManyRows' },
  tooManyTargets: { code: 1029, status: 400, key: 'tooManyTargets' },
  noTargets: { code: 1030, status: 400, key: 'noTargets' },
  ipListExpired: { code: 1031, status: 400, key: 'ipListExpired' },
  ipListEmpty: { code: 1032, status: 400, key: 'ipListEmpty' },
  // Batch pool-setting approval: spec 2 §8 "approval calls with code '-1': msg shown as an error".
  approvalNotFound: { code: -1, status: 404, key: 'approvalNotFound' },
  approvalForbidden: { code: -1, status: 403, key: 'approvalForbidden' },
  approvalDone: { code: -1, status: 409, key: 'approvalDone' },
  approvalQueueFailed: { code: -1, status: 409, key: 'approvalQueueFailed' },
  approverNoEmail: { code: 1060, status: 400, key: 'approverNoEmail' },
  approvalMailFailed: { code: 1061, status: 502, key: 'approvalMailFailed' },
  securityScanRunning: { code: 1070, status: 409, key: 'securityScanRunning' },
  securityNothingToScan: { code: 1071, status: 400, key: 'securityNothingToScan' },
  noMinersInRange: { code: 1072, status: 400, key: 'noMinersInRange' },
  // Pool configuration file (uploadPoolConfig / applyPoolConfig).
  poolConfigExpired: { code: 1080, status: 400, key: 'poolConfigExpired' },
  poolConfigApplied: { code: 1081, status: 409, key: 'poolConfigApplied' },
  poolConfigNotYours: { code: 1082, status: 403, key: 'poolConfigNotYours' },
  poolConfigNothingToApply: { code: 1083, status: 400, key: 'poolConfigNothingToApply' },
  poolConfigNeedsApproval: { code: 1084, status: 403, key: 'poolConfigNeedsApproval' },
} as const;

export type ErrorName = keyof typeof ERROR;

export interface Envelope<T> {
  code: number | string;
  msg: string;
  data: T;
}

export interface FieldErrors {
  fields: Record<string, string>;
}
