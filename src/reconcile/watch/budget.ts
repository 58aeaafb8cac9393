// The service's rate limit as a budget. Every round of a watcher goes through one rate
// limiter per organization (shared by its rounds and stacks, so that back-to-back rounds
// cannot burst past it), set to a share of the organization's limit: the rest stays for
// the people, pipelines and tools that use the same organization. A round small enough to
// finish within a few seconds at that rate runs at it; a bigger one is spread over most of
// the interval instead of spending the budget in a burst and idling after.

/** A round that fits in this many seconds at the budget runs at the budget's rate. */
export const BURST_SECONDS = 5;
/** A spread round aims to end within this share of the interval. */
export const SPREAD_SHARE = 0.8;
/** Never slower than this (requests per second): a round must end. */
export const MIN_RATE = 1;

export interface BudgetInput {
  /** The organization's requests-per-second limit, when known. */
  serviceLimit: number | undefined;
  /** Share of it the watcher may use (0 to 1). */
  share: number;
  /** Requests the stack's last round sent, when known. */
  expectedRequests: number | undefined;
  intervalMs: number;
}

/** The rate (requests per second) a round's calls go at; undefined: no limit known, none set. */
export function roundRate(input: BudgetInput): number | undefined {
  if (input.serviceLimit === undefined || !(input.serviceLimit > 0)) return undefined;
  const budget = Math.max(input.serviceLimit * input.share, Math.min(MIN_RATE, input.serviceLimit));
  const expected = input.expectedRequests;
  if (expected === undefined || expected <= budget * BURST_SECONDS) return budget;
  const spread = expected / ((input.intervalMs / 1000) * SPREAD_SHARE);
  return Math.min(budget, Math.max(spread, MIN_RATE));
}
