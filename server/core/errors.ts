// PocketBase's error envelope: every failed API call answers {code, message, data}.
// `data` holds field errors as {field: {code, message}} (nested for nested fields).

export type FieldErrors = Record<string, unknown>;

export class ApiError extends Error {
  readonly status: number;
  readonly data: FieldErrors;
  /** Extra detail for the request log only; never sent to the client. */
  readonly details?: unknown;

  constructor(status: number, message: string, data: FieldErrors = {}, details?: unknown) {
    super(message);
    this.status = status;
    this.data = data;
    this.details = details;
  }

  toJSON() {
    return { code: this.status, message: this.message, data: this.data };
  }
}

export const badRequest = (
  message = 'Something went wrong while processing your request.',
  data: FieldErrors = {},
  details?: unknown,
) => new ApiError(400, message, data, details);

export const notFound = (message = "The requested resource wasn't found.") => new ApiError(404, message);

export const unauthorized = (message = 'The request requires valid record authorization token to be set.') =>
  new ApiError(401, message);

export const adminOnly = () => unauthorized('The request requires valid admin authorization token to be set.');

export const forbidden = (message = 'You are not allowed to perform this request.') => new ApiError(403, message);

export const tooManyRequests = (message = 'Too many requests.') => new ApiError(429, message);

/** One field error as PocketBase (ozzo-validation) shapes it. */
export const fieldError = (code: string, message: string) => ({ code, message });
