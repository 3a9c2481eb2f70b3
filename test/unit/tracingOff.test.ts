import { execFileSync } from 'node:child_process';
import { projectRoot } from '../../infra/paths';

/**
 * docs/observability.md: with tracing off, no tracing code is loaded. Each case loads a process's modules in a
 * fresh Node (as `npm run server` / `npm run worker` do, without starting it) and lists the tracing SDK modules
 * that were loaded: the OpenTelemetry SDK, exporter and instrumentations, and Temporal's OpenTelemetry
 * interceptors. Only `@opentelemetry/api` (the no-op API the logger asks for an active span) may be loaded.
 */
// Each case starts a Node that compiles the whole API through tsx: seconds on a busy machine.
jest.setTimeout(180_000);

const TRACING_SDK =
  /node_modules\/(@opentelemetry\/(?!api\/)[^/]+|@temporalio\/interceptors-opentelemetry)\//;

function tracingModulesLoaded(entry: string, env: NodeJS.ProcessEnv): string[] {
  const script = `
    require(${JSON.stringify(entry)});
    const loaded = new Set();
    for (const file of Object.keys(require.cache)) {
      const match = ${TRACING_SDK.toString()}.exec(file);
      if (match) loaded.add(match[1]);
    }
    process.stdout.write(JSON.stringify([...loaded].sort()));
    process.exit(0);
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
    timeout: 170_000,
  });
  return JSON.parse(out) as string[];
}

describe('tracing off loads no tracing code', () => {
  it.each(['server.ts', 'worker.ts'])('%s without OTEL_EXPORTER_OTLP_ENDPOINT', (entry) => {
    expect(tracingModulesLoaded(`./${entry}`, {})).toEqual([]);
  });

  it('server.ts with OTEL_SDK_DISABLED=true beside an endpoint', () => {
    expect(
      tracingModulesLoaded('./server.ts', {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
        OTEL_SDK_DISABLED: 'true',
      }),
    ).toEqual([]);
  });

  it('server.ts with an endpoint loads the SDK (so the cases above would see it)', () => {
    expect(
      tracingModulesLoaded('./server.ts', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }),
    ).toEqual(
      expect.arrayContaining([
        '@opentelemetry/sdk-trace-node',
        '@opentelemetry/instrumentation-pg',
        '@temporalio/interceptors-opentelemetry',
      ]),
    );
  });
});
