/**
 * Where the development OpenID Provider keeps its state (DEVELOPMENT ONLY): its signing and cookie keys and the
 * records oidc-provider asks an adapter to hold (sessions, grants, interactions, codes). Under `npm start` that is
 * a folder of .referee/, so a restart keeps people signed in at the provider; without a folder (the browser tests'
 * own provider) the records live in this process. Either way the provider runs on an adapter of ours, never the
 * library's quick-start in-memory one. A few people sign in here: each model is one small JSON file, rewritten
 * whole (through a temporary file and a rename) on every change.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Adapter, AdapterPayload } from 'oidc-provider';

interface StoredRecord {
  payload: AdapterPayload;
  /** Epoch milliseconds; absent for records without an expiry. */
  expiresAt?: number;
}

export interface DevProviderKeys {
  signingKey: Record<string, unknown>;
  cookieKeys: string[];
}

/** The provider's keys: read from `stateDir` when it holds them, else made (and written there when given). */
export function loadOrCreateKeys(stateDir: string | undefined): DevProviderKeys {
  const file = stateDir && join(stateDir, 'keys.json');
  if (file) {
    const stored = readJson<DevProviderKeys>(file);
    if (stored) return stored;
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keys: DevProviderKeys = {
    signingKey: privateKey.export({ format: 'jwk' }) as Record<string, unknown>,
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
  if (file) writeJson(file, keys);
  return keys;
}

/** An oidc-provider adapter class whose instances keep their model's records in `stateDir` (or in memory). */
export function devAdapter(stateDir: string | undefined): new (model: string) => Adapter {
  const models = new Map<string, ModelStore>();
  return class DevAdapter implements Adapter {
    private readonly store: ModelStore;

    constructor(model: string) {
      let store = models.get(model);
      if (!store) {
        store = new ModelStore(stateDir && join(stateDir, `${model}.json`));
        models.set(model, store);
      }
      this.store = store;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      this.store.set(id, { payload, ...(expiresIn ? { expiresAt: Date.now() + expiresIn * 1000 } : {}) });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.store.get(id);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.store.findWhere((payload) => payload.uid === uid);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.store.findWhere((payload) => payload.userCode === userCode);
    }

    async consume(id: string): Promise<void> {
      const record = this.store.record(id);
      if (record) this.store.set(id, { ...record, payload: { ...record.payload, consumed: nowSeconds() } });
    }

    async destroy(id: string): Promise<void> {
      this.store.delete(id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      this.store.deleteWhere((payload) => payload.grantId === grantId);
    }
  };
}

class ModelStore {
  private readonly records: Map<string, StoredRecord>;

  constructor(private readonly file: string | undefined) {
    this.records = new Map(Object.entries((file && readJson<Record<string, StoredRecord>>(file)) || {}));
  }

  record(id: string): StoredRecord | undefined {
    const record = this.records.get(id);
    if (record?.expiresAt !== undefined && record.expiresAt <= Date.now()) return undefined;
    return record;
  }

  get(id: string): AdapterPayload | undefined {
    return this.record(id)?.payload;
  }

  findWhere(matches: (payload: AdapterPayload) => boolean): AdapterPayload | undefined {
    for (const id of this.records.keys()) {
      const payload = this.get(id);
      if (payload && matches(payload)) return payload;
    }
    return undefined;
  }

  set(id: string, record: StoredRecord): void {
    this.records.set(id, record);
    this.save();
  }

  delete(id: string): void {
    if (this.records.delete(id)) this.save();
  }

  deleteWhere(matches: (payload: AdapterPayload) => boolean): void {
    const ids = [...this.records].filter(([, record]) => matches(record.payload)).map(([id]) => id);
    for (const id of ids) this.records.delete(id);
    if (ids.length > 0) this.save();
  }

  /** Writes the live records (expired ones are dropped here, so the file stays small). */
  private save(): void {
    if (!this.file) return;
    const now = Date.now();
    const live = [...this.records].filter(([, r]) => r.expiresAt === undefined || r.expiresAt > now);
    writeJson(this.file, Object.fromEntries(live));
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined; // absent, or cut short by a crash mid-write: start afresh
  }
}

/** Owner-only (keys and sessions), through a temporary file so a crash never leaves half a file. */
function writeJson(file: string, value: unknown): void {
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(value), { mode: 0o600 });
  renameSync(temporary, file);
}
