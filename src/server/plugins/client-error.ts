/**
 * A 4xx refusal whose status has no AppError code (408, 421): the error handler answers
 * {message} with this status, as it does for Fastify's own client errors.
 */
export function clientError(statusCode: number, message: string): Error & { statusCode: number } {
  return Object.assign(new Error(message), { statusCode });
}
