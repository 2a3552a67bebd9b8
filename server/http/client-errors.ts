// Errors raised before a request reaches a route (Node's HTTP parser, Fastify's router) answered
// in PocketBase's envelope like everything else, instead of the framework's own JSON shapes.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Go's net/http default header limit (1 MB), so long filters in a URL are read as 0.22 reads them. */
export const MAX_HEADER_BYTES = 1 << 20;

const envelope = (status: number, message: string) => JSON.stringify({ code: status, message, data: {} });

/** Malformed requests and oversized headers, written straight to the socket (no request exists). */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let message = 'Something went wrong while processing your request.';
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') [status, message] = [408, 'The request timed out.'];
  else if (err.code === 'HPE_HEADER_OVERFLOW') [status, message] = [431, 'The request headers (or the URL) are too large.'];
  const body = envelope(status, message);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** Router errors: an undecodable URL is a bad request; a path segment too long names nothing. */
export function frameworkErrors(error: Error & { code?: string }, _req: FastifyRequest, reply: FastifyReply): void {
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [404, "The requested resource wasn't found."]
      : [400, 'Something went wrong while processing your request.'];
  void reply.status(status).type('application/json').send(envelope(status, message));
}
