import { createLogger } from '../../logging/logger';

/** Every line the logger writes, parsed. */
function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('the logger', () => {
  it('never writes a credential: an API key, a session cookie or a Set-Cookie header', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        headers: { authorization: 'Bearer rk_secret', cookie: 'referee_session=abc' },
        response: { 'set-cookie': 'referee_session=abc; HttpOnly' },
        cookie: 'referee_session=abc',
      },
      'a request',
    );
    const written = JSON.stringify(lines);
    expect(written).not.toContain('rk_secret');
    expect(written).not.toContain('referee_session=abc');
    expect(lines[0]).toMatchObject({
      headers: { authorization: '[redacted]', cookie: '[redacted]' },
      response: { 'set-cookie': '[redacted]' },
      cookie: '[redacted]',
    });
  });
});
