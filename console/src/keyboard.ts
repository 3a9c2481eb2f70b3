import { useLayoutEffect, useRef } from 'preact/hooks';

/** A single-key shortcut of the current page; `?` lists every registered one. */
export interface Shortcut {
  key: string;
  label: string;
  run: () => void;
  /** Off when the action is not available right now (it is still listed, marked unavailable). */
  enabled?: boolean;
}

const registry = new Map<number, Shortcut[]>();
let nextId = 1;

export const registeredShortcuts = (): Shortcut[] => [...registry.values()].flat();

/** True when the key press belongs to a text field or a modified chord, not to the console. */
function isTyping(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  const target = event.target as HTMLElement | null;
  if (!target) return false;
  const tag = target.tagName;
  // Enter on a focused link or button is that element's own action.
  if (event.key === 'Enter' && (tag === 'A' || tag === 'BUTTON')) return true;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

/** Registers the page's shortcuts while it is shown; handlers always see the latest render's closures. */
export function useShortcuts(shortcuts: Shortcut[]): void {
  const latest = useRef(shortcuts);
  const id = useRef(0);
  if (id.current === 0) id.current = nextId++;
  latest.current = shortcuts;
  registry.set(id.current, shortcuts);
  // A layout effect: the keys work as soon as the page is on screen (a plain effect waits for the next frame).
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event)) return;
      const shortcut = latest.current.find((s) => s.key === event.key);
      if (!shortcut || shortcut.enabled === false) return;
      event.preventDefault();
      shortcut.run();
    };
    window.addEventListener('keydown', onKey);
    const mine = id.current;
    return () => {
      window.removeEventListener('keydown', onKey);
      registry.delete(mine);
    };
  }, []);
}
