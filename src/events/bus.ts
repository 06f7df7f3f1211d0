import { randomUUID } from "node:crypto";

/** What the socket reports on `addresses:{hash}` after a verification (Blockscout's `verification_result`). */
export type VerificationResult =
  | { status: "success" }
  | { status: "error"; errors: Record<string, string[]> };

/**
 * Facts that live updates are made from: a committed range of blocks (with the chain head the indexer saw, for the
 * indexing status), a finished verification, a token's refreshed total supply, token instances whose metadata was
 * fetched (the publisher reads the documents from the database). Small, so they fit a PostgreSQL NOTIFY payload.
 */
export type LiveEvent =
  | { kind: "blocks"; from: number; to: number; head?: number }
  | { kind: "verification"; address: string; result: VerificationResult }
  | { kind: "total_supply"; token: string; totalSupply: string }
  | { kind: "token_metadata"; token: string; ids: string[] };

/** What the token workers report: the events they can feed. */
export type TokenChange = Extract<LiveEvent, { kind: "total_supply" | "token_metadata" }>;

export type LiveListener = (event: LiveEvent) => void;

/**
 * The in-process event bus between the indexer (or the verification jobs) and the sockets. `origin` names this
 * process, so an event relayed back through PostgreSQL NOTIFY is not delivered twice.
 */
export class LiveBus {
  readonly origin = randomUUID();
  private readonly listeners = new Set<LiveListener>();

  on(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: LiveEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // A listener's failure is its own; the indexer that emitted must not notice.
      }
    }
  }
}

/** The PostgreSQL channel events travel on between processes sharing one database. */
export const LIVE_CHANNEL = "lookout_live";

export type RelayedEvent = { origin: string; event: LiveEvent };
