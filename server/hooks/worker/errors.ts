// 0.22's error classes for hook code (apis.ApiError and its constructors): thrown or returned by a
// handler they become the response, status, message and data kept (./../errors.ts maps them).
export class ApiError extends Error {
  code: number;
  data: unknown;

  constructor(status?: unknown, message?: unknown, data?: unknown) {
    super(message === undefined || message === null ? '' : String(message));
    this.name = 'ApiError';
    this.code = Number(status) || 0;
    this.data = data ?? null;
  }

  /** ApiError.Error() in 0.22: the message. */
  error(): string {
    return this.message;
  }
}

const subclass = (name: string, status: number, fallback: string) =>
  class extends ApiError {
    constructor(message?: unknown, data?: unknown) {
      super(status, message === undefined || message === null || message === '' ? fallback : message, data);
      this.name = name;
    }
  };

const BadRequestError = subclass('BadRequestError', 400, 'Something went wrong while processing your request.');
const NotFoundError = subclass('NotFoundError', 404, "The requested resource wasn't found.");
export const ForbiddenError = subclass('ForbiddenError', 403, 'You are not allowed to perform this request.');
const UnauthorizedError = subclass('UnauthorizedError', 401, 'Missing or invalid authentication token.');

/** ozzo's validation.Error: a field error inside an ApiError's data. */
export class ValidationError extends Error {
  readonly #code: string;

  constructor(code?: unknown, message?: unknown) {
    super(message === undefined ? '' : String(message));
    this.#code = code === undefined ? '' : String(code);
  }

  code(): string {
    return this.#code;
  }

  error(): string {
    return this.message;
  }

  toJSON(): { code: string; message: string } {
    return { code: this.#code, message: this.message };
  }
}

/** The error classes hook code sees as globals, by name (./globals.ts; ../inline-runner.ts binds the same). */
export const ERROR_CLASSES = { ApiError, BadRequestError, NotFoundError, ForbiddenError, UnauthorizedError, ValidationError };
