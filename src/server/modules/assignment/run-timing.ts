/** The steps of a run whose time the benchmark reports. */
export type RunStep = 'lock' | 'read' | 'classes' | 'solve' | 'write' | 'deliver';
export type RunTimings = Partial<Record<RunStep, number>>;

/**
 * A run's clock: its duration (from the moment it holds the lock, not its wait for the run
 * before), and, when asked for, the milliseconds of each step. Steps interleave across
 * categories, so each mark adds the time since the last mark to its step.
 */
export class RunClock {
  private started = performance.now();
  private lap = this.started;

  constructor(private readonly timings?: RunTimings) {}

  /** Adds the time since the last mark to `name`. */
  step(name: RunStep): void {
    const at = performance.now();
    if (this.timings) this.timings[name] = (this.timings[name] ?? 0) + Math.round(at - this.lap);
    this.lap = at;
  }

  /** The run's own time starts now (after the wait for the lock). */
  startRun(): void {
    this.started = this.lap;
  }

  /** Milliseconds since the run started. */
  elapsed(): number {
    return Math.round(performance.now() - this.started);
  }
}
