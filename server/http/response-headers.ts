// A header every response must carry, including hijacked ones (an event stream writes its head
// itself, so Fastify's reply headers never reach it): set on the reply and on the raw response.
// When Fastify writes the head, its own value for the name wins (e.g. a Vary it extended).
import type { FastifyReply } from 'fastify';

export function setResponseHeader(reply: FastifyReply, name: string, value: string): void {
  void reply.header(name, value);
  reply.raw.setHeader(name, value);
}
