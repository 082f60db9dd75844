import type { FastifyReply } from 'fastify';

/**
 * Sends JSON that the database already wrote (a list page, decision 011) as it is: Fastify skips
 * its serializer for a string with a JSON content type, so the route's response schema documents
 * the answer but does not re-check it (the lists' tests compare it with the contract instead).
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}
