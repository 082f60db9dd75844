/**
 * Knobs of the path search that change its speed, never its result (tests turn them to their
 * extremes to reach every code path on small instances).
 */
export interface SolverTuning {
  /** Recompute all labels once relabelling has cost this many passes over the graph. */
  relabelBudget: number;
  /** Apply the gap rule. */
  gapRule: boolean;
}

export const DEFAULT_TUNING: SolverTuning = { relabelBudget: 1, gapRule: true };
