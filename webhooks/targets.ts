import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where webhooks may be sent (SSRF protection). A target resolving to a loopback, private, link-local, shared,
 * multicast, reserved or cloud-metadata address is refused unless the operator allows private targets
 * (`WEBHOOK_ALLOW_PRIVATE_TARGETS=true`, which also allows plain http, for local receivers). The check runs at
 * registration and again at every connection, through {@link guardedLookup}: the socket connects to the very
 * address that was checked, so a DNS answer that changes in between (rebinding) cannot slip through.
 */
export interface TargetPolicy {
  allowPrivate: boolean;
}

const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (carrier NAT; also Alibaba's metadata service)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, including 169.254.169.254 (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form (::127.0.0.1)
  ['64:ff9b::', 96], // NAT64: reaches any IPv4 address, private ones included
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['100::', 64],
  ['2001::', 32], // Teredo: tunnels to an IPv4 address it embeds
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4: tunnels to an IPv4 address it embeds, private ones included
  ['fc00::', 7], // unique local, including fd00:ec2::254 (cloud metadata)
  ['fe80::', 10],
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/**
 * IPv4 addresses written as IPv6: never a target of their own. Apart from {@link FORBIDDEN}, because BlockList
 * checks every IPv4 address against IPv4-mapped IPv6 rules too, and this one would match them all.
 */
const IPV4_AS_IPV6 = new BlockList();
IPV4_AS_IPV6.addSubnet('::ffff:0:0', 96, 'ipv6'); // IPv4-mapped
IPV4_AS_IPV6.addSubnet('::ffff:0:0:0', 96, 'ipv6'); // IPv4-translated (RFC 2765)

/** Whether a literal IP address is one webhooks must not reach by default. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return FORBIDDEN.check(bare, 'ipv4');
  if (family === 6) return FORBIDDEN.check(bare, 'ipv6') || IPV4_AS_IPV6.check(bare, 'ipv6');
  return true; // not an address at all: never trusted
}

export type TargetRefusal = 'invalid_url' | 'scheme_not_allowed' | 'credentials_in_url' | 'private_target';

/**
 * What a host that does not resolve and a host that resolves to a forbidden address are both told: one text, so
 * registering URLs cannot tell an admin which internal names exist.
 */
export const NOT_PUBLIC_TARGET = "The URL's host does not resolve to a public address.";

export class WebhookTargetRefused extends Error {
  constructor(
    readonly reason: TargetRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** Checks a URL's form: absolute http(s), no user info, https unless private targets are allowed. */
export function checkTargetUrl(text: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookTargetRefused('invalid_url', 'The URL is not an absolute URL.');
  }
  if (url.protocol !== 'https:' && !(policy.allowPrivate && url.protocol === 'http:')) {
    throw new WebhookTargetRefused(
      'scheme_not_allowed',
      policy.allowPrivate ? 'The URL must use http or https.' : 'The URL must use https.',
    );
  }
  if (url.username || url.password) {
    throw new WebhookTargetRefused('credentials_in_url', 'The URL must not carry a user name or password.');
  }
  return url;
}

/** The host of a URL as DNS or an IP literal reads it (`[::1]` → `::1`). */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Resolves a target's host and refuses it when any of its addresses is forbidden (a name with one public and one
 * private address is refused: which one a connection gets is not ours to choose).
 */
export async function checkTargetAddresses(url: URL, policy: TargetPolicy): Promise<string[]> {
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      throw new WebhookTargetRefused('private_target', NOT_PUBLIC_TARGET);
    }
  }
  if (!policy.allowPrivate && addresses.some(isForbiddenAddress))
    throw new WebhookTargetRefused('private_target', NOT_PUBLIC_TARGET);
  return addresses;
}

/**
 * A `lookup` for http(s).request that resolves, checks every address and hands the socket the checked one. Node
 * skips `lookup` for IP literals: {@link checkTargetAddresses} covers those before the request.
 */
export function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true }).then(
      (entries) => {
        const refused = !policy.allowPrivate && entries.some((entry) => isForbiddenAddress(entry.address));
        if (refused || entries.length === 0) {
          callback(
            new WebhookTargetRefused('private_target', `${hostname} resolves to a forbidden address`),
            '',
            4,
          );
          return;
        }
        if (options.all) callback(null, entries);
        else callback(null, entries[0].address, entries[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}
