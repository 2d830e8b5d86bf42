// One error type for every documented failure; the handler in platform/error-handler.ts renders it.
export type ErrorExtra = Record<string, unknown>;

export class ApiError extends Error {
  readonly status: number;
  readonly body: { error: string; message?: string } & ErrorExtra;

  constructor(status: number, error: string, extra: ErrorExtra & { message?: string } = {}) {
    super(extra.message ?? error);
    this.status = status;
    this.body = { error, ...extra };
  }
}

export const badRequest = (error: string, extra?: ErrorExtra) => new ApiError(400, error, extra);
export const unauthorized = (error: string, extra?: ErrorExtra) => new ApiError(401, error, extra);
export const paymentRequired = (error: string, extra?: ErrorExtra) => new ApiError(402, error, extra);
export const forbidden = (error: string, extra?: ErrorExtra) => new ApiError(403, error, extra);
export const notFound = (error: string, extra?: ErrorExtra) => new ApiError(404, error, extra);
export const conflict = (error: string, extra?: ErrorExtra) => new ApiError(409, error, extra);
export const unprocessable = (error: string, extra?: ErrorExtra) => new ApiError(422, error, extra);
