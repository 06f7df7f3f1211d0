/**
 * The Phoenix channels wire format, serializer vsn 2.0.0 (the `phoenix` JS client the Blockscout frontend uses):
 * every frame is a JSON array `[join_ref, ref, topic, event, payload]`. Pure.
 */
export type PhoenixFrame = {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
};

const isRef = (v: unknown): v is string | null => v === null || typeof v === "string";

/** A client frame, or null when it is not one (the connection ignores it, as Phoenix drops what it cannot decode). */
export function parseFrame(text: string): PhoenixFrame | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(v) || v.length !== 5) return null;
  const [joinRef, ref, topic, event, payload] = v as unknown[];
  if (!isRef(joinRef) || !isRef(ref) || typeof topic !== "string" || typeof event !== "string") return null;
  return { joinRef, ref, topic, event, payload };
}

/** The reply to a client frame (`phx_reply`), echoing its refs so the client resolves its push. */
export function replyFrame(
  to: PhoenixFrame,
  status: "ok" | "error",
  response: Record<string, unknown> = {},
): string {
  return JSON.stringify([to.joinRef, to.ref, to.topic, "phx_reply", { status, response }]);
}

/**
 * A broadcast: no refs, so every member of the topic accepts it whatever its join ref (the client checks a join
 * ref only when one is given). One string per event, sent as is to every subscriber.
 */
export function broadcastFrame(topic: string, event: string, payload: unknown): string {
  return JSON.stringify([null, null, topic, event, payload]);
}

const ADDRESS = /^0x[0-9a-f]{40}$/;
const TX_HASH = /^0x[0-9a-f]{64}$/;

const FIXED_TOPICS = new Set([
  "blocks:new_block",
  "blocks:indexing",
  "blocks:indexing_internal_transactions",
  "transactions:new_transaction",
  "transactions:new_pending_transaction",
  "exchange_rate:new_rate",
]);

/** Longer than any topic Blockscout has (`transactions:0x` + 64 hex digits is 79). */
export const MAX_TOPIC_LENGTH = 128;

// The rollup families' topics are event names (`optimism:new_deposits`, `arbitrum:new_batch`,
// `arbitrum:new_messages_to_rollup_amount`, `zkevm_batches:new_zkevm_confirmed_batch`): a short snake_case word,
// so a client cannot park kilobytes of text in a subscription.
const EVENT_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The topics Blockscout's v2 socket accepts, normalised (addresses lower-cased), or an error reason as Blockscout
 * words it. Topics of other chain types (optimism, arbitrum, zkevm) are accepted too; they just never fire here.
 */
export function normaliseTopic(topic: string): { topic: string } | { reason: string } {
  if (topic.length > MAX_TOPIC_LENGTH) return { reason: "topic too long" };
  if (FIXED_TOPICS.has(topic)) return { topic };
  const at = topic.indexOf(":");
  if (at < 0) return { reason: "unmatched topic" };
  const kind = topic.slice(0, at);
  const rest = topic.slice(at + 1).toLowerCase();
  switch (kind) {
    case "blocks":
    case "addresses":
    case "tokens":
    case "token_instances":
    case "rewards":
      return ADDRESS.test(rest) ? { topic: `${kind}:${rest}` } : { reason: "invalid address hash" };
    case "transactions":
      return TX_HASH.test(rest) ? { topic: `${kind}:${rest}` } : { reason: "invalid transaction hash" };
    case "optimism":
    case "arbitrum":
    case "zkevm_batches":
      return EVENT_NAME.test(rest) ? { topic: `${kind}:${rest}` } : { reason: "unmatched topic" };
    default:
      return { reason: "unmatched topic" };
  }
}
