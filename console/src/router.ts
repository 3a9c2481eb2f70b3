import { useEffect, useState } from 'preact/hooks';

/** The console's routes live under /console; the server answers every one of them with the same page. */
export const BASE = '/console';

export interface Location {
  path: string;
  query: URLSearchParams;
}

const current = (): Location => ({
  path: location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/',
  query: new URLSearchParams(location.search),
});

const listeners = new Set<() => void>();

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const url = `${BASE}${path}`;
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    listeners.add(update);
    window.addEventListener('popstate', update);
    // A child's effect (a redirect) may have navigated before this effect subscribed.
    update();
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return location;
}

/** A link that navigates inside the console without reloading the page. */
export function linkProps(path: string) {
  return {
    href: `${BASE}${path}`,
    onClick: (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
        return;
      event.preventDefault();
      navigate(path);
    },
  };
}
