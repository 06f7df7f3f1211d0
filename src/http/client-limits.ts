import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * Who a request counts against: its client address (`req.ip`: the peer, or with API_RATE_LIMIT_IS_BLOCKSCOUT_BEHIND_PROXY
 * the address the reverse proxy put in X-Forwarded-For). Loopback clients are never limited unless Lookout runs
 * behind a proxy: a local setup, the test suite and a same-host proxy left unconfigured (whose every client would
 * otherwise share the proxy's one address and one limit) all come from loopback.
 */
export type ClientPolicy = { behindProxy: boolean };

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

export const isLoopback = (ip: string) => LOOPBACK.test(ip);

export const unlimitedClient = (req: FastifyRequest, p: ClientPolicy) => !p.behindProxy && isLoopback(req.ip);

/**
 * Fastify's trustProxy for the policy: one hop (the proxy's own entry in X-Forwarded-For), not the left-most entry
 * a client can write itself.
 */
export const trustProxyOption = (p: ClientPolicy): false | ((address: string, hop: number) => boolean) =>
  p.behindProxy ? (_address, hop) => hop < 1 : false;

/** Requests in flight per client, at most `max` each: `take` answers whether one more may start. */
export function createClientSlots(max: number) {
  const inflight = new Map<string, number>();
  return {
    /** Takes a slot for `key` until `reply` is finished or its connection closes; false when all are taken. */
    take(key: string, reply: FastifyReply): boolean {
      const n = inflight.get(key) ?? 0;
      if (n >= max) return false;
      inflight.set(key, n + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const left = (inflight.get(key) ?? 1) - 1;
        if (left <= 0) inflight.delete(key);
        else inflight.set(key, left);
      };
      // "finish" when the answer went out (light-my-request emits only that one), "close" when the client left.
      reply.raw.once("finish", release);
      reply.raw.once("close", release);
      return true;
    },
    inUse: (key: string) => inflight.get(key) ?? 0,
  };
}
