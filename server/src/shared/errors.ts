import { type ErrorCode, NOT_LOGGED_IN_MESSAGE } from '@portal/contract';

/** An error a client can act on: its status and code are part of the API; its message is for people. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    /** Extra body fields a documented call answers with beside code and message. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const unauthenticated = () => new AppError(401, 'unauthenticated', NOT_LOGGED_IN_MESSAGE);
export const forbidden = (message = 'You do not have the permissions to do this.') =>
  new AppError(403, 'forbidden', message);
export const notFound = (what: string) => new AppError(404, 'not_found', `${what} was not found.`);
export const conflict = (code: ErrorCode, message: string, field?: string) => new AppError(409, code, message, field);
export const badRequest = (code: ErrorCode, message: string, field?: string) => new AppError(400, code, message, field);
