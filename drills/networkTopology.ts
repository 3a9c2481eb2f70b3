import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';

/*
 * The network of `npm run chaos -- --network` (docs/chaos.md, "Network faults"): a network namespace per process
 * and store, each with one end of a veth pair, whose other ends hang on a bridge inside a hub namespace. Every
 * address is in 10.77.0.0/24 and exists only inside those namespaces: nothing is added to the machine's own
 * network, and no packet of the drill leaves them.
 */

/** Every namespace of the drill starts with this; a run sweeps what a killed run left under it. */
export const NAMESPACE_PREFIX = 'rfn-';
export const SUBNET = '10.77.0.0/24';

/** The namespaces: the hub (the bridge and Toxiproxy), each store, each Referee process, and the drill itself. */
export type NetworkHost = 'hub' | 'postgres' | 'temporal' | 's3' | 'api' | 'worker' | 'drill';

/** Each namespace's address on the bridge (the hub's is the bridge's own). */
export const HOST_ADDRESSES: Record<NetworkHost, string> = {
  hub: '10.77.0.1',
  postgres: '10.77.0.10',
  temporal: '10.77.0.11',
  s3: '10.77.0.12',
  api: '10.77.0.20',
  worker: '10.77.0.21',
  drill: '10.77.0.30',
};

export const namespaceOf = (host: NetworkHost) => `${NAMESPACE_PREFIX}${host}`;
const BRIDGE = 'rfn-br';
/** The nftables table the faults write their rules into, one per namespace. */
export const FAULT_TABLE = 'rfn_faults';

/** The `ip` commands (argument lists) that build the network: the hub with its bridge, then a leg per host. */
export function networkCommands(): string[][] {
  const hub = namespaceOf('hub');
  const commands: string[][] = [
    ['netns', 'add', hub],
    ['-n', hub, 'link', 'set', 'lo', 'up'],
    ['-n', hub, 'link', 'add', BRIDGE, 'type', 'bridge'],
    ['-n', hub, 'addr', 'add', `${HOST_ADDRESSES.hub}/24`, 'dev', BRIDGE],
    ['-n', hub, 'link', 'set', BRIDGE, 'up'],
  ];
  for (const host of Object.keys(HOST_ADDRESSES) as NetworkHost[]) {
    if (host === 'hub') continue;
    const ns = namespaceOf(host);
    // Interface names are at most 15 characters: rfnh-temporal is 13.
    const leg = `rfnh-${host}`;
    commands.push(
      ['netns', 'add', ns],
      ['-n', ns, 'link', 'set', 'lo', 'up'],
      // Both ends are made inside the namespaces: the machine's own namespace never holds one.
      ['-n', hub, 'link', 'add', leg, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns],
      ['-n', hub, 'link', 'set', leg, 'master', BRIDGE],
      ['-n', hub, 'link', 'set', leg, 'up'],
      ['-n', ns, 'addr', 'add', `${HOST_ADDRESSES[host]}/24`, 'dev', 'eth0'],
      ['-n', ns, 'link', 'set', 'eth0', 'up'],
    );
  }
  return commands;
}

const run = promisify(execFile);

/** Builds the network (after sweeping what an earlier run left), and an empty fault table in every namespace. */
export async function createNetwork(log: (line: string) => void): Promise<void> {
  sweepNetwork(log);
  for (const args of networkCommands()) await run('ip', args);
  for (const host of Object.keys(HOST_ADDRESSES) as NetworkHost[]) await setFaultRules(host, []);
  log(`network: ${Object.keys(HOST_ADDRESSES).length} namespaces ${NAMESPACE_PREFIX}* on ${SUBNET}`);
}

/** The drill's namespaces that exist now. */
export function existingNamespaces(): string[] {
  const out = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.split(' ')[0])
    .filter((name) => name.startsWith(NAMESPACE_PREFIX));
}

/**
 * Kills every process still inside a namespace of the drill and deletes the namespaces (their veths and the
 * bridge go with them). Synchronous, so that it also runs from an `exit` handler.
 */
export function sweepNetwork(log: (line: string) => void = () => {}): void {
  const namespaces = existingNamespaces();
  for (const ns of namespaces) {
    const pids = execFileSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }
  for (const ns of namespaces) {
    try {
      execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
    } catch {
      // deleted meanwhile
    }
  }
  if (namespaces.length > 0) log(`network: removed ${namespaces.length} namespaces`);
}

/** One rule of a fault: packets to drop on a host, to or from `peer`'s `port`, in one or both directions. */
export interface DropRule {
  /** The peer's address and TCP port: a Toxiproxy listener, or a store's own port. */
  peer: string;
  ports: number[];
  /** `both`: a partition; `answers`: only what comes back from the peer (requests still reach it). */
  direction: 'both' | 'answers';
  /** Percent of the packets dropped; 100 when absent (a partition). */
  percent?: number;
}

/** The nftables ruleset of one namespace's fault table holding `rules` (replacing what it held). */
export function faultRuleset(rules: readonly DropRule[]): string {
  const drop = (rule: DropRule) =>
    rule.percent === undefined || rule.percent >= 100
      ? 'drop'
      : `numgen random mod 100 < ${Math.round(rule.percent)} drop`;
  const ports = (rule: DropRule) =>
    rule.ports.length === 1 ? `${rule.ports[0]}` : `{ ${rule.ports.join(', ')} }`;
  const output = rules
    .filter((r) => r.direction === 'both')
    .map((r) => `    ip daddr ${r.peer} tcp dport ${ports(r)} ${drop(r)}`);
  const input = rules.map((r) => `    ip saddr ${r.peer} tcp sport ${ports(r)} ${drop(r)}`);
  return [
    `table inet ${FAULT_TABLE}`,
    `delete table inet ${FAULT_TABLE}`,
    `table inet ${FAULT_TABLE} {`,
    '  chain output {',
    '    type filter hook output priority 0; policy accept;',
    ...output,
    '  }',
    '  chain input {',
    '    type filter hook input priority 0; policy accept;',
    ...input,
    '  }',
    '}',
    '',
  ].join('\n');
}

/** Replaces the fault rules of `host`'s namespace with `rules` (none: healed). */
export async function setFaultRules(host: NetworkHost, rules: readonly DropRule[]): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = execFile('ip', ['netns', 'exec', namespaceOf(host), 'nft', '-f', '-'], (error) =>
      error ? reject(error) : resolve(),
    );
    child.stdin!.end(faultRuleset(rules));
  });
}

/** `command args` run inside `host`'s namespace, for spawn. */
export const inNamespace = (host: NetworkHost, command: string, args: string[]): [string, string[]] => [
  'ip',
  ['netns', 'exec', namespaceOf(host), command, ...args],
];
