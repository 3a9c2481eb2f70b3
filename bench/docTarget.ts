/** The options of `npm run bench` that decide which generated section of docs/benchmark-results.md a run writes. */
export interface BenchDocOptions {
  markdown?: boolean;
  quick?: boolean;
  only?: string;
  tasks?: string;
  workers?: string;
  tracing?: boolean;
  webhooks?: boolean;
  engine?: string;
  scale?: string;
  'scale-tasks'?: string;
}

/** Options that make a run other than the one a section holds (a section holds exactly one run's table). */
const PARTIAL = ['quick', 'only', 'tasks', 'workers', 'tracing', 'webhooks', 'scale-tasks'] as const;

/**
 * The section of docs/benchmark-results.md that `--markdown` writes for these options, or null without `--markdown`.
 * Throws for a run no section holds: a full run writes its engine's section, `--scale 1m` the growth section, and
 * `--only mutation --webhooks` (nothing else partial) its engine's webhook section.
 */
export function benchDocSection(options: BenchDocOptions): string | null {
  if (!options.markdown) return null;
  const partial = PARTIAL.filter((name) => options[name]);
  const server = options.engine === 'server';
  const webhookRun =
    options.webhooks &&
    options.only !== undefined &&
    options.only.split(',').every((pair) => pair === 'mutation') &&
    partial.every((name) => name === 'only' || name === 'webhooks');
  if (webhookRun && !options.scale) return server ? 'bench-webhooks-temporal-server' : 'bench-webhooks';
  if (partial.length > 0 || options.scale === '100k')
    throw new Error(
      `--markdown writes the doc's table from a full run, --scale 1m or --only mutation --webhooks: not with ` +
        (partial.map((n) => `--${n}`).join(', ') || '--scale 100k'),
    );
  if (options.scale) return 'growth';
  return server ? 'bench-temporal-server' : 'bench-dev-server';
}
