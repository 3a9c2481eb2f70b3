import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyCache } from '../../api/kernel/keyCache';
import type { ManagedProcess } from '../../infra/processes';
import type { RunningServer } from '../../server';
import { waitFor } from '../helpers/imports';
import { startExtraServer } from '../helpers/keys';
import { startApiProgram } from '../helpers/reliability';
import { http, memberId, mintKey, seedMembers, startStack, type TestStack } from '../helpers/stack';

/*
 * Authentication without a query per request (api/kernel/keyCache.ts): each API process keeps the keys it
 * looked up, and every change that ends a key reaches every process through LISTEN/NOTIFY before the
 * next request. Here the other process is a real one: server.ts spawned as its own program.
 */
let stack: TestStack;
let other: ManagedProcess;
let otherUrl: string;
let logDir: string;
let inProcess: RunningServer;
let admin: string;

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack);
  logDir = await mkdtemp(join(tmpdir(), 'referee-keycache-'));
  ({ proc: other, url: otherUrl } = await startApiProgram(stack, join(logDir, 'api.log')));
  inProcess = await startExtraServer(stack);
  admin = (await mintKey(stack, 'math', 'idp|ada')).token;
}, 120_000);

afterAll(async () => {
  await inProcess?.close();
  if (other) {
    process.kill(other.pid, 'SIGTERM');
    await other.exited;
  }
  await stack?.stop();
  if (logDir) await rm(logDir, { recursive: true, force: true });
});

const session = async (url: string, token: string) => {
  const res = await fetch(`${url}/api/auth/session`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { detail?: string } };
};

/**
 * A change made behind a process reaches it with its notification (docs/keys.md): requests racing the
 * notification's delivery may still be served from the cache, none after it. The bound is far below the
 * cache's 30 s lifetime, so only the notification can make it; once refused, the key stays refused.
 */
const NOTIFICATION_BOUND_MS = 3_000;
const refusedOnceNotified = async (url: string, token: string) => {
  const deadline = Date.now() + NOTIFICATION_BOUND_MS;
  let refused = await session(url, token);
  while (refused.status !== 401 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    refused = await session(url, token);
  }
  for (let i = 0; i < 3 && refused.status === 401; i++) {
    const again = await session(url, token);
    if (again.status !== 401) return again;
  }
  return refused;
};

describe('the key cache of each API process', () => {
  it('serves repeated requests without looking the key up again', async () => {
    const key = await mintKey(stack, 'math', 'idp|rui');
    const lookups: string[] = [];
    const query = inProcess.deps.dataSource.query.bind(inProcess.deps.dataSource);
    const spy = jest.spyOn(inProcess.deps.dataSource, 'query').mockImplementation((sql: string, params) => {
      if (sql.includes('FROM api_keys k JOIN members m')) lookups.push(sql);
      return query(sql, params);
    });
    try {
      for (let i = 0; i < 5; i++) expect((await session(inProcess.url, key.token)).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(lookups).toHaveLength(1);
  });

  it('refuses a key revoked through one process in another process once its notification arrives', async () => {
    const key = await mintKey(stack, 'math', 'idp|rui');
    expect((await session(otherUrl, key.token)).status).toBe(200);
    expect((await session(otherUrl, key.token)).status).toBe(200);
    const revoked = await http(stack, 'DELETE', `/api/keys/${key.id}`, { token: admin });
    expect(revoked.status).toBe(200);
    const next = await refusedOnceNotified(otherUrl, key.token);
    expect(next.status).toBe(401);
    expect(next.body.detail).toMatch(/revoked/);
  });

  it('refuses the keys of a member disabled outside the API (as `ops members sync` does) once its notification arrives', async () => {
    const key = await mintKey(stack, 'math', 'idp|sofia');
    expect((await session(otherUrl, key.token)).status).toBe(200);
    expect((await session(inProcess.url, key.token)).status).toBe(200);
    const sofia = await memberId(stack, 'math', 'idp|sofia');
    await stack.dataSource.query('UPDATE members SET enabled = false WHERE id = $1', [sofia]);
    try {
      for (const url of [otherUrl, inProcess.url]) {
        const next = await refusedOnceNotified(url, key.token);
        expect(next.status).toBe(401);
        expect(next.body.detail).toMatch(/disabled/);
      }
    } finally {
      await stack.dataSource.query('UPDATE members SET enabled = true WHERE id = $1', [sofia]);
    }
    // Enabling again takes effect when its notification reaches the other process (docs/keys.md), not before.
    await waitFor(
      'the re-enabled member served by the other process',
      async () => (await session(otherUrl, key.token)).status === 200,
      5_000,
      20,
    );
  });

  it('refuses a cached key once it expires, with no notification needed', async () => {
    const key = await mintKey(stack, 'math', 'idp|rui', { expiresInMs: 1500 });
    expect((await session(otherUrl, key.token)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const next = await session(otherUrl, key.token);
    expect(next.status).toBe(401);
    expect(next.body.detail).toMatch(/expired/);
  });

  it('keeps nothing while its listener is not connected, so no notification can be missed', async () => {
    const cache = new KeyCache('postgres://postgres@127.0.0.1:1/none', { reconnectMs: 60_000 });
    await cache.start();
    const row = {
      id: 'k',
      service: 'math',
      member_id: '1',
      expires_at: new Date(Date.now() + 60_000),
      revoked_at: null,
      enabled: true,
    };
    cache.store('math', row, cache.generation);
    expect(cache.get('math', 'k')).toBeUndefined();
    await cache.close();
  });

  it('does not keep a row looked up while a change was notified', async () => {
    const cache = new KeyCache(stack.config.databaseUrl);
    await cache.start();
    try {
      const row = {
        id: 'k',
        service: 'math',
        member_id: '1',
        expires_at: new Date(Date.now() + 60_000),
        revoked_at: null,
        enabled: true,
      };
      const before = cache.generation;
      await stack.dataSource.query(`SELECT pg_notify('referee_auth_changes', 'key:elsewhere')`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      cache.store('math', row, before);
      expect(cache.get('math', 'k')).toBeUndefined();
      cache.store('math', row, cache.generation);
      expect(cache.get('math', 'k')).toEqual(row);
      await stack.dataSource.query(`SELECT pg_notify('referee_auth_changes', 'member:1')`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(cache.get('math', 'k')).toBeUndefined();
    } finally {
      await cache.close();
    }
  });
});
