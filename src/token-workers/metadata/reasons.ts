/**
 * Failure taxonomy of the metadata fetcher. Every failure carries a stable `reason` code (stored beside the token
 * instance) and a retry class; loops decide by class, never by message text.
 */

export type RetryClass = "permanent" | "transient" | "rate_limited";

/**
 * Retry class per reason. "permanent" matches the errors Blockscout bans after 9 retries (VM execution error,
 * request error: 404, no uri, invalid …, nxdomain, econnrefused, blacklist; spec blockscout-explorer-api.md §5 NFT
 * instances, Retries). We add the outcomes that re-fetching the same document cannot change (`not_an_object`,
 * `too_large`, `unsupported_scheme`); upstream has no size cap and leaves "wrong metadata type" in the 13-retry group.
 */
export const REASON_CLASS = {
  /** The contract returned an empty URI. */
  no_uri: "permanent",
  /** tokenURI/uri reverted (reported by the caller that does the eth_call). */
  vm_execution_error: "permanent",
  invalid_uri: "permanent",
  invalid_token_id: "permanent",
  invalid_data_uri: "permanent",
  unsupported_scheme: "permanent",
  /** SSRF guard: a loopback/private/link-local/multicast/unspecified/reserved address (upstream "blacklist"). */
  forbidden_address: "permanent",
  dns_not_found: "permanent",
  connection_refused: "permanent",
  http_404: "permanent",
  too_large: "permanent",
  invalid_json: "permanent",
  not_an_object: "permanent",
  http_429: "rate_limited",
  http_4xx: "transient",
  http_5xx: "transient",
  http_status: "transient",
  too_many_redirects: "transient",
  timeout: "transient",
  network: "transient",
  aborted: "transient",
} as const satisfies Record<string, RetryClass>;

export type FailureReason = keyof typeof REASON_CLASS;

export const FAILURE_REASONS = Object.keys(REASON_CLASS) as FailureReason[];

export type Failure = {
  ok: false;
  reason: FailureReason;
  /** Human-readable, at most 255 characters (the width upstream stores). */
  message: string;
  /** A hint: false for permanent failures. `nextRetry` makes the actual schedule and give-up decision. */
  retryable: boolean;
};

const MAX_MESSAGE_LENGTH = 255;

export function failure(reason: FailureReason, message: string): Failure {
  return {
    ok: false,
    reason,
    message: message.length > MAX_MESSAGE_LENGTH ? message.slice(0, MAX_MESSAGE_LENGTH) : message,
    retryable: REASON_CLASS[reason] !== "permanent",
  };
}

export function retryClassOf(reason: FailureReason): RetryClass {
  return REASON_CLASS[reason];
}

/** Maps a non-2xx HTTP status to its reason code. */
export function reasonForStatus(status: number): FailureReason {
  if (status === 404) return "http_404";
  if (status === 429) return "http_429";
  if (status >= 500 && status <= 599) return "http_5xx";
  if (status >= 400 && status <= 499) return "http_4xx";
  return "http_status";
}
