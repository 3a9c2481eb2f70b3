import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import type { ApiError, Service } from './rest';

/** Who is signed in, from the service's session endpoint. */
export interface Session {
  service: Service;
  memberId: string;
  name: string;
  username: string;
  role: 'REVIEWER' | 'OWNER' | 'ADMIN';
  /** The key's scopes (the math session lists them; the genomics session does not). */
  scopes: string[] | null;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in console');
  return session;
}

export const isOperator = (session: Session) => session.role !== 'REVIEWER';

/** True unless the key's scopes are known and lack this one. */
export const mayUse = (session: Session, scope: string) =>
  session.scopes === null || session.scopes.includes(scope);

export function ProblemNote({ error }: { error: ApiError }) {
  const { problem } = error;
  return (
    <div class="problem" role="alert">
      <strong>
        {problem.status ? `${problem.status} ` : ''}
        {problem.title ?? 'Request failed'}
      </strong>
      {problem.detail && <span>: {problem.detail}</span>}
      {problem.errors && problem.errors.length > 0 && (
        <ul>
          {problem.errors.map((e) => (
            <li key={e.path}>
              <code>{e.path}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export interface Async<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
  reload: () => void;
  set: (data: T) => void;
}

/** Loads on mount and whenever `deps` change; the last answer wins. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): Async<T> {
  const [state, setState] = useState<{ data: T | null; error: ApiError | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => current && setState({ data, error: null, loading: false }),
      (error: ApiError) => current && setState({ data: null, error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const set = useCallback((data: T) => setState({ data, error: null, loading: false }), []);
  return { ...state, reload, set };
}

export const formatTime = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—';

export const label = (value: string | null | undefined): string =>
  value ? value.replaceAll('_', ' ').toLowerCase() : '—';

export function StateBadge({ value }: { value: string | null }) {
  return <span class={`badge state-${(value ?? 'none').toLowerCase()}`}>{label(value) || '—'}</span>;
}

/** A line for the next page to show once: what the last action did. */
let flash: string | null = null;
export const setFlash = (text: string): void => {
  flash = text;
};
export function takeFlash(): string | null {
  const text = flash;
  flash = null;
  return text;
}

export function Notice({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p class="notice" role="status" data-testid="notice">
      {text}
    </p>
  );
}
