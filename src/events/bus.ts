import { randomUUID } from "node:crypto";
import type { ChainEvent } from "./facts.js";

export type EventListener = (event: ChainEvent) => void;

/**
 * The in-process event bus between the parts that make facts (the indexer, the verification jobs, the token
 * workers) and those that react (the sockets, the token workers). `origin` names this process, so an event
 * relayed back through PostgreSQL NOTIFY is not delivered twice.
 */
export class EventBus {
  readonly origin = randomUUID();
  private readonly listeners = new Set<EventListener>();

  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: ChainEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // A listener's failure is its own; the part that emitted must not notice.
      }
    }
  }
}
