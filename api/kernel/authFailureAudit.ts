import type { DataSource } from 'typeorm';
import { type AuthFailureRecord, recordAuthFailures } from '../../access/authQueries';
import type { ServiceName } from '../../entities/types';

/** One refused credential (or sign-in), as the request that carried it showed it. */
export interface AuthFailure {
  service: ServiceName;
  /** The identity audit record's kind: `authentication_failed`, or `console_sign_in_refused`. */
  kind: string;
  reason: string;
  memberId: string | null;
  keyId: string | null;
  method: string;
  /** The route template (`/api/things/:thing_id`), never the raw path: the caller chooses the path. */
  route: string;
  /** The TCP peer's address. */
  source: string;
  /** Facts of the first failure of a group (assertion id, session id, why a sign-in was refused). */
  jti?: string;
  why?: string;
}

interface Group {
  failure: AuthFailure;
  count: number;
  firstAt: Date;
  lastAt: Date;
}

export interface AuthFailureAuditOptions {
  /** How often the groups counted since the last write are written (default 10 s). */
  intervalMs: number;
  /**
   * Groups (reason, member, key, method, route, source) kept per interval; failures past them are counted in one
   * group per service, kind and reason with no member, key, route or source (default 50).
   */
  maxGroups?: number;
  onError?: (error: unknown) => void;
  now?: () => Date;
}

/** What a failure past the interval's groups is recorded as: the route and the source are not kept. */
export const OVERFLOW = '*';

const groupKey = (f: AuthFailure) =>
  JSON.stringify([f.service, f.kind, f.reason, f.memberId, f.keyId, f.method, f.route, f.source]);

/**
 * The identity audit's record of refused credentials, written off the request path: failures are counted in
 * memory per reason, member, key, route and source address, and each interval writes one record per group with its
 * count (docs/keys.md, "Failed authentication"). A request an attacker sends therefore writes nothing itself, and a
 * flood of them adds at most `maxGroups` + one per reason records per interval, whatever it sends. A crash loses
 * at most one interval of counts.
 */
export class AuthFailureAudit {
  private groups = new Map<string, Group>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly maxGroups: number;
  private readonly onError: (error: unknown) => void;
  private readonly now: () => Date;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: AuthFailureAuditOptions,
  ) {
    this.maxGroups = options.maxGroups ?? 50;
    this.onError = options.onError ?? (() => undefined);
    this.now = options.now ?? (() => new Date());
  }

  /** Counts one failure; never waits and never fails. */
  record(failure: AuthFailure): void {
    const at = this.now();
    let key = groupKey(failure);
    let group = this.groups.get(key);
    if (!group && this.groups.size >= this.maxGroups) {
      failure = { ...failure, memberId: null, keyId: null, route: OVERFLOW, source: OVERFLOW };
      delete failure.jti;
      delete failure.why;
      key = groupKey(failure);
      group = this.groups.get(key);
    }
    if (group) {
      group.count += 1;
      group.lastAt = at;
    } else this.groups.set(key, { failure, count: 1, firstAt: at, lastAt: at });
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes every group counted so far (one statement); resolves when they are in the table. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.groups.values()];
    this.groups = new Map();
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        await recordAuthFailures(this.dataSource, batch.map(toRecord));
      } catch (error) {
        this.onError(error);
      }
    });
    return this.flushing;
  }
}

function toRecord({ failure: f, count, firstAt, lastAt }: Group): AuthFailureRecord {
  return {
    service: f.service,
    kind: f.kind,
    memberId: f.memberId,
    keyId: f.keyId,
    detail: {
      reason: f.reason,
      method: f.method,
      path: f.route,
      source: f.source,
      count,
      first_at: firstAt.toISOString(),
      last_at: lastAt.toISOString(),
      ...(f.jti ? { assertion_jti: f.jti } : {}),
      ...(f.why ? { why: f.why } : {}),
    },
  };
}

/** The address a request came from, IPv4-mapped IPv6 shown as IPv4 (one address, one group). */
export const sourceAddress = (remote: string | undefined): string =>
  (remote ?? 'unknown').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
