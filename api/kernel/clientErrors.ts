import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { problems } from './errors';

/**
 * Node's answer to a request it cannot parse (oversized head, invalid bytes), as problem+json like every other
 * error: Node would otherwise write a bare 400 or 431. Registered as the server's `clientError` listener.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const problem =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? problems.headersTooLarge()
      : problems.badRequest('bad_request', 'The request is not valid HTTP/1.1.');
  const body = JSON.stringify(problem.toProblem());
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
