import { problems } from './errors';

/** Deeper than any body an operation declares; the walk (and joi after it) never meets a deeper one. */
export const MAX_JSON_DEPTH = 64;

/** Keys that reach an object's prototype when a body is merged or spread; refused at any depth. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Refuses a parsed JSON body that nests deeper than `MAX_JSON_DEPTH` or has a forbidden key, with 400
 * `malformed_json` naming where. Iterative: a body 100,000 levels deep must not overflow the stack here.
 */
export function assertSafeJson(body: unknown): void {
  const pending: Array<{ value: unknown; depth: number; path: string }> = [
    { value: body, depth: 0, path: 'body' },
  ];
  while (pending.length > 0) {
    const { value, depth, path } = pending.pop() as (typeof pending)[number];
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      throw problems.malformedJson(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++)
        pending.push({ value: value[i], depth: depth + 1, path: `${path}.${i}` });
      continue;
    }
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) {
        throw problems.malformedJson(`The request body has a forbidden key "${key}" at ${path}.`);
      }
      pending.push({
        value: (value as Record<string, unknown>)[key],
        depth: depth + 1,
        path: `${path}.${key}`,
      });
    }
  }
}
