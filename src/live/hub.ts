import { broadcastFrame } from "./phoenix.js";

/**
 * One socket as the hub sees it: `send` queues a text frame (a string, or its UTF-8 bytes encoded once for every
 * subscriber); a client that cannot keep up is closed by its owner.
 */
export type LiveClient = { send(frame: string | Buffer): void };

/**
 * Topic → subscribers, and fan-out: an event is serialised once and the same string goes to every subscriber of
 * its topic. Nothing here waits on a client: sockets buffer, and the socket layer drops a client whose buffer
 * grows past its bound.
 */
export class LiveHub {
  private readonly topics = new Map<string, Set<LiveClient>>();
  private readonly joinHooks = new Map<string, (topic: string, client: LiveClient) => void>();

  join(topic: string, client: LiveClient): void {
    let set = this.topics.get(topic);
    if (!set) {
      set = new Set();
      this.topics.set(topic, set);
    }
    set.add(client);
  }

  leave(topic: string, client: LiveClient): void {
    const set = this.topics.get(topic);
    if (!set) return;
    set.delete(client);
    if (set.size === 0) this.topics.delete(topic);
  }

  /**
   * Runs `hook` for every join of a `<kind>:…` topic, once the join is acknowledged (the socket calls `joined`):
   * what the topic's kind kept for a late subscriber goes to that client only.
   */
  onJoined(kind: string, hook: (topic: string, client: LiveClient) => void): void {
    this.joinHooks.set(kind, hook);
  }

  /** Called by the socket after it acknowledged a join of `topic` by `client`. */
  joined(topic: string, client: LiveClient): void {
    this.joinHooks.get(topic.slice(0, topic.indexOf(":")))?.(topic, client);
  }

  has(topic: string): boolean {
    return this.topics.has(topic);
  }

  subscribers(topic: string): number {
    return this.topics.get(topic)?.size ?? 0;
  }

  /** The subjects of the joined topics `<kind>:<subject>` (e.g. the watched addresses for `addresses`). */
  subjects(kind: string): string[] {
    const prefix = `${kind}:`;
    const out: string[] = [];
    for (const t of this.topics.keys()) if (t.startsWith(prefix)) out.push(t.slice(prefix.length));
    return out;
  }

  /** Sends one event to every subscriber of `topic`; returns how many got it. */
  broadcast(topic: string, event: string, payload: unknown): number {
    const set = this.topics.get(topic);
    if (!set) return 0;
    const frame = Buffer.from(broadcastFrame(topic, event, payload));
    // A copy: a send may close a slow client, which leaves the topic while we iterate.
    for (const c of [...set]) c.send(frame);
    return set.size;
  }
}
