import type { Output } from './output';
import { type Needs, resolveSystem, type System } from './system';

/** What every command gets: where its output goes, and the system it administers (resolved on first use). */
export interface CommandContext {
  out: Output;
  system(needs?: Needs): System;
}

export function createContext(out: Output): CommandContext {
  let resolved: System | undefined;
  return {
    out,
    system(needs = { temporal: false }) {
      if (!resolved) {
        resolved = resolveSystem(needs);
        out.note(resolved.description);
      }
      return resolved;
    },
  };
}
