/**
 * A process's leases on the deliveries its workers claimed (decision 040). The claim writes a
 * lease (`lease_until`); while the worker holds the deliveries this keeper renews every lease of
 * the process in one statement, every quarter of the lease. A process that dies renews nothing,
 * and another process's sweep takes its deliveries over once the lease lapsed
 * (deliveries.service, takeOverLapsedLeases).
 *
 * A send starts only while the lease has the send's time limit and a second left, counted from
 * when the last renewal that covered it (or the claim) was *sent*: the database's clock can only
 * have started the lease later. So a live worker's send always ends before its lease could lapse,
 * and a slow endpoint is never sent a delivery twice because of the lease; a worker whose renewals
 * fail stops sending and leaves the rest to the takeover.
 */
import type { Db } from '../../db/client';
import { type HeldDelivery, renewLeases } from './deliveries.repository';

/** What a send needs left on its lease beyond its time limit. */
const MARGIN_MS = 1_000;

export class DeliveryLeases {
  /** id -> the attempt count the claim left, and since when (performance.now) the lease runs */
  private readonly held = new Map<number, { attempts: number; since: number }>();
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;
  private isStopped = false;
  private db: Db | null = null;

  constructor(private readonly leaseSeconds: number) {}

  /** The time (performance.now) just before a claim's statement was sent. */
  static now(): number {
    return performance.now();
  }

  /** Deliveries just claimed through `db`, the claim sent at `since`. */
  hold(db: Db, rows: HeldDelivery[], since: number): void {
    if (this.isStopped) return;
    this.db = db;
    for (const r of rows) this.held.set(r.id, { attempts: r.attempts, since });
    if (!this.timer && this.held.size > 0) {
      this.timer = setInterval(() => void this.renew(), (this.leaseSeconds * 1000) / 4);
      this.timer.unref();
    }
  }

  /** Deliveries recorded or given back: their leases are over. */
  drop(ids: Iterable<number>): void {
    for (const id of ids) this.held.delete(id);
    if (this.held.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Whether a send of this time limit may start now: the lease is still this process's and lasts. */
  maySend(id: number, timeoutMs: number): boolean {
    const lease = this.held.get(id);
    if (!lease || this.isStopped) return false;
    return lease.since + this.leaseSeconds * 1000 - performance.now() >= timeoutMs + MARGIN_MS;
  }

  /** One renewal of every lease held; one still running is not doubled. */
  renew(): Promise<void> {
    if (this.renewing) return this.renewing;
    if (!this.db) return Promise.resolve();
    const rows = [...this.held].map(([id, h]) => ({ id, attempts: h.attempts }));
    const since = performance.now();
    this.renewing = renewLeases(this.db, rows, this.leaseSeconds)
      .then((renewed) => {
        const kept = new Set(renewed);
        for (const r of rows) {
          const lease = this.held.get(r.id);
          if (!lease || lease.attempts !== r.attempts) continue;
          // taken over, recorded elsewhere: no longer this process's to send
          if (kept.has(r.id)) lease.since = since;
          else this.held.delete(r.id);
        }
      })
      // a renewal that failed changes nothing: the leases run out, and sends stop before they do
      .catch(() => undefined)
      .finally(() => {
        this.renewing = null;
      });
    return this.renewing;
  }

  /** Whether the process stopped: it records nothing more (as a crashed one could not). */
  get stopped(): boolean {
    return this.isStopped;
  }

  /**
   * The process is going away (its queue stopped, past the grace): nothing is renewed any more,
   * no send starts, and nothing more is recorded; another process takes the deliveries over.
   */
  stop(): void {
    this.isStopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
