/** The subset of joi's `describe()` output the joi → JSON Schema converter reads. */

export interface JoiDescription {
  type: string;
  flags?: {
    presence?: 'required' | 'optional' | 'forbidden';
    only?: boolean;
    unknown?: boolean;
    default?: unknown;
    description?: string;
    empty?: JoiDescription;
    match?: 'any' | 'one' | 'all';
  };
  allow?: unknown[];
  invalid?: unknown[];
  rules?: Array<{ name: string; args?: Record<string, unknown> }>;
  keys?: Record<string, JoiDescription>;
  patterns?: Array<{ regex?: string; schema?: JoiDescription; rule: JoiDescription }>;
  items?: JoiDescription[];
  ordered?: JoiDescription[];
  matches?: Array<{ schema?: JoiDescription; ref?: unknown; is?: JoiDescription }>;
  dependencies?: Array<{ rel: string; key?: string; peers: string[] }>;
  whens?: JoiWhen[];
  examples?: unknown[];
  metas?: unknown[];
}

export interface JoiWhen {
  ref?: { path?: string[]; ancestor?: number | string; type?: string };
  is?: JoiDescription;
  then?: JoiDescription;
  otherwise?: JoiDescription;
  switch?: Array<{ is: JoiDescription; then: JoiDescription; otherwise?: JoiDescription }>;
}

export const presence = (d: JoiDescription) => d.flags?.presence ?? 'optional';
