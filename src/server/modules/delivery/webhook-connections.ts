/**
 * The process's cap on open CRM webhook connections (WEBHOOK_MAX_CONNECTIONS): deliveries and
 * test events share it, so no number of agents or test clicks can make the server hold more
 * sockets open than this. A delivery waits for a free connection (it is never lost); a test
 * event does not wait: the agent is told to try again.
 */
export type ReleaseConnection = () => void;

export class WebhookConnections {
  private open = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {}

  /** A connection now, or null when every one is taken. */
  tryTake(): ReleaseConnection | null {
    if (this.open >= this.max) return null;
    this.open += 1;
    return this.releaser();
  }

  /** A connection, once one is free: those waiting get them in turn. */
  take(): Promise<ReleaseConnection> {
    const now = this.tryTake();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      this.waiting.push(() => resolve(this.releaser()));
    });
  }

  private releaser(): ReleaseConnection {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // handed straight to the next in line: the count stays as it is
      if (next) next();
      else this.open -= 1;
    };
  }
}
