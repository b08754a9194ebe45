import "server-only";

/**
 * The one error type of the sandbox. Every error response is exactly {"error_code","message"}, like the upstream.
 * 401 = authentication, 417 = business rule or bad parameter, 429 = rate limit, 500 = internal.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const unauthorized = (code: string, message: string) => new ApiError(401, code, message);
export const business = (code: string, message: string) => new ApiError(417, code, message);
export const illegal = (message: string) => new ApiError(417, "ILLEGAL_PARAMETER", message);

export const missingHeader = (code: string, header: string) => unauthorized(code, `Header ${header} is missing.`);
export const badSignature = () => unauthorized("UNAUTHORIZED", "Header x-signature is invalid.");
export const invalidToken = () => unauthorized("INVALID_TOKEN", "Header x-access-token is missing or invalid.");
