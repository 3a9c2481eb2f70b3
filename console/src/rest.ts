/**
 * The console's only way to the server: the published REST APIs, with the signed-in key as a Bearer token or,
 * after a sign-in with the organisation's provider, the session cookie (HttpOnly: this code never sees it) and
 * the session's CSRF token on every write. Every write carries an Idempotency-Key; a 401 signs the console out.
 */
import type { ContractProblem } from './contract/types';

export type Service = 'math' | 'genomics';

/**
 * An RFC 9457 problem as both services send it, or as the console makes one (a network error, a refused input):
 * only `status` is sure; a problem may carry members beyond the contract's.
 */
export interface Problem extends Partial<ContractProblem> {
  status: number;
  [extension: string]: unknown;
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
  }
  get status(): number {
    return this.problem.status;
  }
}

const KEY_STORAGE = 'referee.console.key';

/** The key lives in sessionStorage only: gone with the tab, never in a URL, a cookie or a log. */
export const storedKey = (): string | null => sessionStorage.getItem(KEY_STORAGE);
export const storeKey = (key: string): void => sessionStorage.setItem(KEY_STORAGE, key);
/** Forgets the key and everything the console kept for this tab (the review stream). */
export function forgetKey(): void {
  for (const name of Object.keys(sessionStorage))
    if (name.startsWith('referee.console.')) sessionStorage.removeItem(name);
}

/** Which service a key belongs to, from its public prefix (`rfm_` math, `rfg_` genomics). */
export function serviceOfKey(key: string): Service | null {
  if (/^rfm_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/.test(key)) return 'math';
  if (/^rfg_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/.test(key)) return 'genomics';
  return null;
}

/** The console session's CSRF token while signed in with the provider; null when signed in with a key. */
let sessionCsrfToken: string | null = null;
export const setSessionCsrfToken = (csrfToken: string | null): void => {
  sessionCsrfToken = csrfToken;
};

let onUnauthorized: (problem: Problem) => void = () => undefined;
export function whenUnauthorized(handler: (problem: Problem) => void): void {
  onUnauthorized = handler;
}

/** A fresh Idempotency-Key (`^[A-Za-z0-9._:-]{16,128}$`). */
export const newIdempotencyKey = (): string => `console:${crypto.randomUUID()}`;

export type Query = Record<string, string | number | undefined | null>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function send(
  method: string,
  path: string,
  options: { body?: unknown; idempotencyKey?: string; key?: string } = {},
): Promise<Response> {
  const own = path.startsWith('/console/');
  const key = own ? null : (options.key ?? storedKey());
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const withCookie = !key && sessionCsrfToken !== null;
  if (withCookie && method !== 'GET') headers['x-csrf-token'] = sessionCsrfToken!;
  if (method !== 'GET' && !own) headers['idempotency-key'] = options.idempotencyKey ?? newIdempotencyKey();
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body,
      credentials: withCookie || own ? 'same-origin' : 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError({ status: 0, title: 'Network error', detail: 'The server could not be reached.' });
  }
  if (!response.ok) {
    const problem = await problemOf(response);
    if (response.status === 401 && !options.key && !own) onUnauthorized(problem);
    throw new ApiError(problem);
  }
  return response;
}

async function problemOf(response: Response): Promise<Problem> {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      const body = (await response.json()) as Problem;
      return { ...body, status: response.status };
    } catch {
      // fall through to a plain problem
    }
  }
  return { status: response.status, title: response.statusText || `HTTP ${response.status}` };
}

export async function getJson<T>(path: string, query?: Query, key?: string): Promise<T> {
  const response = await send('GET', withQuery(path, query), { key });
  return (await response.json()) as T;
}

/** What the server says of the console's sign-in (GET /console/auth/state). */
export interface AuthState {
  provider: { name: string } | null;
  signed_in: boolean;
  notice?: string;
  csrf_token?: string;
  memberships?: Array<{
    service: Service;
    member: { id: string; username: string; display_name: string; role: 'REVIEWER' | 'OWNER' | 'ADMIN' };
  }>;
}

export const authState = (): Promise<AuthState> => getJson<AuthState>('/console/auth/state');

/** Ends the console session; the answer names where to go next (the provider's sign-out, where it has one). */
export async function endConsoleSession(): Promise<string> {
  const response = await send('POST', '/console/auth/sign-out');
  const { redirect } = (await response.json()) as { redirect: string };
  return redirect;
}

export async function writeJson<T>(
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  idempotencyKey: string,
): Promise<T> {
  const response = await send(method, path, { body, idempotencyKey });
  const text = await response.text();
  return (text ? JSON.parse(text) : {}) as T;
}

export interface Download {
  blob: Blob;
  type: string;
  filename: string | null;
  /** Hex SHA-256 the server declared (Repr-Digest), when it did. */
  declaredSha256: string | null;
}

/** Fetches a file with the key; the bytes stay in memory (never a URL carrying the key). */
export async function download(path: string): Promise<Download> {
  const response = await send('GET', path);
  const blob = await response.blob();
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]*)"/.exec(disposition)?.[1] ?? null;
  const digest = /sha-256=:([A-Za-z0-9+/=]+):/.exec(response.headers.get('repr-digest') ?? '')?.[1];
  return {
    blob,
    type: (response.headers.get('content-type') ?? blob.type).split(';')[0].trim(),
    filename,
    declaredSha256: digest ? base64ToHex(digest) : null,
  };
}

function base64ToHex(base64: string): string {
  return Array.from(atob(base64), (c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');
}

export async function sha256Hex(data: BufferSource): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', data);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One Idempotency-Key per intent: a retry of the same request (a double click, a retry after a network error)
 * reuses the key, so the server applies it once; a different request, or one after a success, gets a new key.
 */
export class IntentKey {
  private current: { fingerprint: string; key: string } | null = null;
  for(request: unknown): string {
    const fingerprint = JSON.stringify(request);
    if (this.current?.fingerprint !== fingerprint) {
      this.current = { fingerprint, key: newIdempotencyKey() };
    }
    return this.current.key;
  }
  settled(): void {
    this.current = null;
  }
}
