import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import {
  ApiError,
  type AuthState,
  authState,
  endConsoleSession,
  forgetKey,
  getJson,
  type Problem,
  type Service,
  serviceOfKey,
  storedKey,
  storeKey,
  setSessionCsrfToken,
  whenUnauthorized,
} from './rest';
import { GenomicsDashboard } from './dashboard/genomicsDashboard';
import { MathDashboard } from './dashboard/mathDashboard';
import { TopicPage } from './genomics/topic';
import type { GenomicsSession } from './genomics/types';
import { TopicList } from './genomics/topics';
import { registeredShortcuts, useShortcuts } from './keyboard';
import { MathQueue } from './math/queue';
import { TaskPage } from './math/task';
import type { MathSession } from './math/types';
import { linkProps, navigate, useLocation } from './router';
import { ProblemNote, type Session, SessionContext } from './ui';

/** Reads who the key belongs to from its service's session endpoint. */
async function loadSession(service: Service, key?: string): Promise<Session> {
  if (service === 'math') {
    const s = await getJson<MathSession>('/api/auth/session', undefined, key);
    return {
      service,
      memberId: s.member.id,
      name: s.member.display_name,
      username: s.member.username,
      role: s.role,
      scopes: s.scopes,
    };
  }
  const s = await getJson<GenomicsSession>('/api/v1/session', undefined, key);
  return {
    service,
    memberId: s.user.id,
    name: s.user.display_name,
    username: s.user.username,
    role: s.user.role,
    scopes: null,
  };
}

/** The console's sessions in each service a provider sign-in opened (its member there and role). */
function sessionsOf(state: AuthState): Session[] {
  return (state.memberships ?? []).map((m) => ({
    service: m.service,
    memberId: m.member.id,
    name: m.member.display_name,
    username: m.member.username,
    role: m.member.role,
    // What the server grants a console session; files and keys need an API key.
    scopes: m.service === 'math' ? ['read', 'write'] : null,
  }));
}

/** The service a console address belongs to, if any. */
const serviceOfPath = (path: string): Service | null =>
  path.startsWith('/genomics') ? 'genomics' : path.startsWith('/math') ? 'math' : null;

export function App() {
  const location = useLocation();
  const [keySession, setKeySession] = useState<Session | null>(null);
  /** Sessions opened by signing in with the provider, one per service; empty when signed in with a key. */
  const [providerSessions, setProviderSessions] = useState<Session[]>([]);
  const [provider, setProvider] = useState<AuthState['provider']>(null);
  const [checking, setChecking] = useState(true);
  const [signedOutBecause, setSignedOutBecause] = useState<string | null>(null);

  const signOut = (reason: string | null) => {
    forgetKey();
    setSessionCsrfToken(null);
    setKeySession(null);
    setProviderSessions([]);
    setSignedOutBecause(reason);
  };

  useEffect(() => {
    whenUnauthorized((problem: Problem) =>
      signOut(
        `Signed out: the server refused the ${storedKey() ? 'key' : 'session'} (${problem.detail ?? problem.title ?? '401'}).`,
      ),
    );
    const key = storedKey();
    const service = key ? serviceOfKey(key) : null;
    if (!key || !service) forgetKey();
    const byKey = key && service ? loadSession(service).then(setKeySession, () => undefined) : null;
    const byProvider = authState().then(
      (state) => {
        setProvider(state.provider);
        if (state.notice) setSignedOutBecause(state.notice);
        if (state.signed_in && !byKey) {
          setSessionCsrfToken(state.csrf_token ?? null);
          setProviderSessions(sessionsOf(state));
        }
      },
      () => undefined,
    );
    void Promise.all([byKey, byProvider]).then(() => setChecking(false));
  }, []);

  const wanted = serviceOfPath(location.path);
  const session =
    keySession ?? providerSessions.find((s) => s.service === wanted) ?? providerSessions[0] ?? null;
  if (checking) return <p class="muted page">Checking your sign-in…</p>;
  if (!session)
    return (
      <SignIn
        notice={signedOutBecause}
        provider={provider}
        onSignedIn={(s, key) => {
          storeKey(key);
          setSignedOutBecause(null);
          setKeySession(s);
        }}
      />
    );
  const endSession = () => {
    if (providerSessions.length === 0) return signOut('Signed out.');
    endConsoleSession().then(
      (next) => {
        signOut('Signed out.');
        window.location.assign(next);
      },
      (error: ApiError) => setSignedOutBecause(`Sign-out failed: ${error.message}`),
    );
  };
  return (
    <SessionContext.Provider value={session}>
      <Shell
        key={session.service}
        session={session}
        others={providerSessions.filter((s) => s.service !== session.service)}
        onSignOut={endSession}
      />
    </SessionContext.Provider>
  );
}

function SignIn({
  notice,
  provider,
  onSignedIn,
}: {
  notice: string | null;
  provider: AuthState['provider'];
  onSignedIn: (s: Session, key: string) => void;
}) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = key.trim();
    const service = serviceOfKey(trimmed);
    if (!service) {
      setError(
        new ApiError({
          status: 0,
          title: 'Not an API key',
          detail: 'A Referee key starts with rfm_ (math) or rfg_ (genomics).',
        }),
      );
      return;
    }
    setBusy(true);
    try {
      const session = await loadSession(service, trimmed);
      onSignedIn(session, trimmed);
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="page sign-in">
      <h1>Referee console</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {provider && (
        <p>
          {/* A plain link: the sign-in is a top-level navigation to the provider and back. */}
          <a class="button" href="/console/auth/sign-in">
            Sign in with {provider.name}
          </a>
        </p>
      )}
      <h2>{provider ? 'Or with an API key' : 'Sign in with an API key'}</h2>
      <p>
        Sign in with your own API key. It is kept in this tab only (session storage) and sent to this server
        alone.
      </p>
      {/* submit shows its own failure (setError), so nothing waits on it. */}
      <form onSubmit={(event) => void submit(event)}>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={key}
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
          required
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {error && <ProblemNote error={error} />}
    </main>
  );
}

const SERVICE_TITLE: Record<Service, string> = { math: 'Math review', genomics: 'Genomics workspace' };

function Shell({
  session,
  others,
  onSignOut,
}: {
  session: Session;
  /** The other services the provider sign-in opened. */
  others: Session[];
  onSignOut: () => void;
}) {
  const location = useLocation();
  const [help, setHelp] = useState(false);
  useShortcuts([{ key: '?', label: 'Show or hide these shortcuts', run: () => setHelp((h) => !h) }]);

  const home = session.service === 'math' ? '/math' : '/genomics';
  let page;
  let match: RegExpExecArray | null;
  if (session.service === 'math' && (match = /^\/math\/tasks\/([^/]+)$/.exec(location.path)))
    page = <TaskPage taskId={decodeURIComponent(match[1])} query={location.query} />;
  else if (session.service === 'math' && location.path === '/math')
    page = <MathQueue query={location.query} />;
  else if (session.service === 'math' && location.path === '/math/dashboard')
    page = <MathDashboard query={location.query} />;
  else if (session.service === 'genomics' && location.path === '/genomics/dashboard')
    page = <GenomicsDashboard query={location.query} />;
  else if (session.service === 'genomics' && (match = /^\/genomics\/topics\/([^/]+)$/.exec(location.path)))
    page = <TopicPage topicUid={decodeURIComponent(match[1])} />;
  else if (session.service === 'genomics' && location.path === '/genomics')
    page = <TopicList query={location.query} />;
  else page = <Redirect to={home} />;

  return (
    <>
      <header class="top">
        <a class="brand" {...linkProps(home)}>
          Referee · {SERVICE_TITLE[session.service]}
        </a>
        <nav aria-label="Pages" class="pages">
          <a {...linkProps(home)} aria-current={location.path === home ? 'page' : undefined}>
            {session.service === 'math' ? 'Queue' : 'Topics'}
          </a>
          <a
            {...linkProps(`${home}/dashboard`)}
            aria-current={location.path === `${home}/dashboard` ? 'page' : undefined}
          >
            Dashboard
          </a>
        </nav>
        {others.map((other) => (
          <a
            key={other.service}
            class="switch"
            {...linkProps(other.service === 'math' ? '/math' : '/genomics')}
          >
            Open {SERVICE_TITLE[other.service]}
          </a>
        ))}
        <span class="who" data-testid="who">
          {session.name} <span class="muted">({session.username})</span> ·{' '}
          <span class="role">{session.role}</span>
        </span>
        <button type="button" class="link" onClick={() => setHelp(true)} aria-haspopup="dialog">
          Shortcuts (?)
        </button>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main class="page" id="main">
        {page}
      </main>
      {help && <HelpDialog onClose={() => setHelp(false)} />}
    </>
  );
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

/** The focusable elements of a container, in tab order (what a modal dialog keeps focus among). */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The shortcuts as a modal dialog: focus moves into it, Tab and Shift+Tab stay inside it, and on close focus
 * returns to where it was (the button or row that opened it).
 */
function HelpDialog({ onClose }: { onClose: () => void }) {
  const shortcuts = registeredShortcuts();
  const dialog = useRef<HTMLDivElement>(null);
  useShortcuts([{ key: 'Escape', label: 'Close this list', run: onClose }]);
  useLayoutEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    dialog.current?.querySelector<HTMLElement>('button')?.focus();
    const keepFocusInside = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || !dialog.current) return;
      const focusable = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const inside = dialog.current.contains(document.activeElement);
      const [first, last] = [focusable[0], focusable[focusable.length - 1]];
      if (inside && document.activeElement !== (event.shiftKey ? first : last)) return;
      event.preventDefault();
      (event.shiftKey ? last : first)?.focus();
    };
    window.addEventListener('keydown', keepFocusInside);
    return () => {
      window.removeEventListener('keydown', keepFocusInside);
      if (opener && opener !== document.body && opener.isConnected) opener.focus();
    };
  }, []);
  return (
    <div class="overlay" onClick={onClose}>
      <div
        ref={dialog}
        class="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="help-title"
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id="help-title">Keyboard shortcuts</h2>
        <table>
          <tbody>
            {shortcuts.map((s) => (
              <tr key={s.key + s.label} class={s.enabled === false ? 'muted' : ''}>
                <td>
                  <kbd>{s.key}</kbd>
                </td>
                <td>
                  {s.label}
                  {s.enabled === false ? ' (not available here now)' : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
