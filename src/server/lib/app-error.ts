/** An error meant for the caller: mapped to its HTTP status in one place (plugins/errors). */
export type AppErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_UNAVAILABLE';

export const STATUS_BY_CODE: Record<AppErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
};

/** A refused field, as a failed schema reports it: the form marks the field. */
export interface FieldProblem {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** the fields at fault, sent as `errors` beside the message */
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
/** A 400 about one field of the body, which the form marks (`errors: [{field, message}]`). */
export const badField = (field: string, message: string) =>
  new AppError('BAD_REQUEST', message, {}, [{ field, message }]);
export const conflict = (message: string) => new AppError('CONFLICT', message);
