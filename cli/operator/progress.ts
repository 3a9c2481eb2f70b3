/** How far a check has come; the CLI draws it as a bar (or JSON Lines). */
export interface OperatorProgress {
  phase: string;
  done: number;
  total: number;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
