import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import type { Logger } from 'pino';
import { type ApiError, problems } from './errors';

/** What Node's HTTP server keeps on a socket about the response in flight, if any. */
type HttpSocket = Duplex & { _httpMessage?: { headersSent?: boolean }; bytesRead?: number };

/** Node's parser codes with their own answer; any other parse failure is a 400. */
function problemFor(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') return problems.headersTooLarge();
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return problems.requestTimeout();
  return problems.badRequest('bad_request', 'The request is not valid HTTP/1.1.');
}

/**
 * The server's `clientError` listener: Node's answer to a request it cannot parse (oversized head, invalid
 * bytes, a request past its timeout), as problem+json like every other error, where Node would write a bare
 * 400, 408 or 431. Like Node's own listener it writes nothing once a response has begun on the socket (an
 * answer there would corrupt the response the client is reading) and nothing to a peer that went away.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, logger?: Logger): void {
  const inFlight = (socket as HttpSocket)._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const problem = problemFor(error.code);
  // How much the client had sent tells a stalled request from an idle connection; the bytes are never logged.
  logger?.info(
    { code: error.code, status: problem.status, bytesRead: (socket as HttpSocket).bytesRead },
    'request refused by the HTTP parser',
  );
  const body = JSON.stringify(problem.toProblem());
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
