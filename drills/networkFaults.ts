import { type DropRule, HOST_ADDRESSES, type NetworkHost } from './networkTopology';
import type { LatencyToxic, ProxyLink } from './networkProxy';

/** The faults of `npm run chaos -- --network` (docs/chaos.md, "Network faults"). */
export type NetworkFaultKind =
  | 'api-temporal-slow-lossy'
  | 'api-postgres-partition'
  | 'worker-postgres-partition'
  | 'worker-temporal-partition'
  | 'history-partition'
  | 'api-s3-partition'
  | 'api-temporal-answers-dropped'
  | 'postgres-slow';

export const NETWORK_FAULTS: readonly NetworkFaultKind[] = [
  'api-temporal-slow-lossy',
  'api-postgres-partition',
  'worker-postgres-partition',
  'worker-temporal-partition',
  'history-partition',
  'api-s3-partition',
  'api-temporal-answers-dropped',
  'postgres-slow',
];

/** `--quick`: the two faults that most often break an exactly-once promise. */
export const QUICK_FAULTS: readonly NetworkFaultKind[] = [
  'api-postgres-partition',
  'api-temporal-answers-dropped',
];

/** Each fault's name in the table, and how long it lasts before it is healed. */
export const FAULT_SPECS: Record<NetworkFaultKind, { name: string; durationMs: number }> = {
  'api-temporal-slow-lossy': { name: 'API ↔ Temporal: 200 ± 100 ms delay, 5 % loss', durationMs: 30_000 },
  'api-postgres-partition': { name: 'API ↔ PostgreSQL partitioned', durationMs: 20_000 },
  'worker-postgres-partition': { name: 'worker ↔ PostgreSQL partitioned', durationMs: 20_000 },
  'worker-temporal-partition': { name: 'worker ↔ Temporal partitioned', durationMs: 20_000 },
  'history-partition': { name: "a history host cut off from Temporal's other hosts", durationMs: 20_000 },
  'api-s3-partition': { name: 'API ↔ S3 partitioned (uploads, downloads)', durationMs: 20_000 },
  'api-temporal-answers-dropped': { name: 'API ← Temporal: answers dropped (one way)', durationMs: 20_000 },
  'postgres-slow': { name: 'PostgreSQL slow: 500 ms per packet', durationMs: 30_000 },
};

/** The proxied links: each Referee process reaches each store through a Toxiproxy listener of its own. */
export type LinkName = `${'api' | 'worker'}-${'temporal' | 'postgres' | 's3'}`;
export const LINK_PORTS: Record<LinkName, number> = {
  'api-temporal': 17001,
  'worker-temporal': 17002,
  'api-postgres': 17003,
  'worker-postgres': 17004,
  'api-s3': 17005,
  'worker-s3': 17006,
};

/** The links with their upstreams: PostgreSQL and S3 on fixed ports, Temporal's frontend where it listens. */
export function proxyLinks(upstreams: { temporal: string; postgres: string; s3: string }): ProxyLink[] {
  return (Object.keys(LINK_PORTS) as LinkName[]).map((name) => ({
    name,
    listen: `${HOST_ADDRESSES.hub}:${LINK_PORTS[name]}`,
    upstream: upstreams[name.split('-')[1] as 'temporal' | 'postgres' | 's3'],
  }));
}

/** What a fault does while it lasts: packets dropped in some namespaces, latency on some links. */
export interface FaultEffect {
  drops: Partial<Record<NetworkHost, DropRule[]>>;
  toxics: Array<{ proxy: LinkName; toxic: LatencyToxic }>;
}

/** A link's client namespace drops its packets to and from the link's listener. */
const linkDrop = (link: LinkName, rule: Omit<DropRule, 'peer' | 'ports'> = { direction: 'both' }) => ({
  [link.split('-')[0]]: [{ peer: HOST_ADDRESSES.hub, ports: [LINK_PORTS[link]], ...rule }],
});

/**
 * The effect of `kind`. `historyPorts` are the gRPC and membership ports of the history host cut off (in
 * Temporal's namespace every host shares one address, so a port names a host).
 */
export function faultEffect(kind: NetworkFaultKind, historyPorts: number[]): FaultEffect {
  const none: FaultEffect = { drops: {}, toxics: [] };
  switch (kind) {
    case 'api-temporal-slow-lossy':
      return {
        drops: linkDrop('api-temporal', { direction: 'both', percent: 5 }),
        toxics: [
          {
            proxy: 'api-temporal',
            toxic: { name: 'delay', stream: 'downstream', latencyMs: 200, jitterMs: 100 },
          },
        ],
      };
    case 'api-postgres-partition':
      return { ...none, drops: linkDrop('api-postgres') };
    case 'worker-postgres-partition':
      return { ...none, drops: linkDrop('worker-postgres') };
    case 'worker-temporal-partition':
      return { ...none, drops: linkDrop('worker-temporal') };
    case 'history-partition':
      return {
        ...none,
        drops: { temporal: [{ peer: HOST_ADDRESSES.temporal, ports: historyPorts, direction: 'both' }] },
      };
    case 'api-s3-partition':
      return { ...none, drops: linkDrop('api-s3') };
    case 'api-temporal-answers-dropped':
      return { ...none, drops: linkDrop('api-temporal', { direction: 'answers' }) };
    case 'postgres-slow':
      return {
        drops: {},
        toxics: (['api-postgres', 'worker-postgres'] as const).flatMap((proxy) =>
          (['upstream', 'downstream'] as const).map((stream) => ({
            proxy,
            toxic: { name: `slow-${stream}`, stream, latencyMs: 500, jitterMs: 0 },
          })),
        ),
      };
  }
}

/** One fault of a run's schedule: when it starts and when it is healed (ms from the schedule's start). */
export interface ScheduledFault {
  kind: NetworkFaultKind;
  startMs: number;
  healMs: number;
}

/**
 * The run's faults one after another: the first after `warmupMs` of steady load, each next one `recoveryMs` after
 * the last was healed (time for the system to serve again and for its recovery to be measured).
 */
export function faultSchedule(
  kinds: readonly NetworkFaultKind[],
  opts: { warmupMs: number; recoveryMs: number },
): ScheduledFault[] {
  const schedule: ScheduledFault[] = [];
  let at = opts.warmupMs;
  for (const kind of kinds) {
    const healMs = at + FAULT_SPECS[kind].durationMs;
    schedule.push({ kind, startMs: at, healMs });
    at = healMs + opts.recoveryMs;
  }
  return schedule;
}

/** How long the schedule runs, with a last recovery window after the last heal. */
export const scheduleLengthMs = (schedule: readonly ScheduledFault[], recoveryMs: number) =>
  schedule.length === 0 ? 0 : schedule[schedule.length - 1].healMs + recoveryMs;
