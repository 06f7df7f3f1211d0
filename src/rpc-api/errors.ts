import type { ErrorCause, ErrorShape } from "../http/dialects.js";
import { notOk } from "../verifier-apis/etherscan/view.js";

/**
 * Etherscan answers everything with HTTP 200 and status "0" (a transient database failure: 503): bad input with what is wrong, unknown routes and our
 * own failures with a message (never internals).
 */
export function etherscanError(_status: number, message: string, cause?: ErrorCause): ErrorShape {
  switch (cause?.kind) {
    case "validation":
    case "request":
      return { status: 200, body: notOk(`Invalid request: ${message}`) };
    case "internal":
      return { status: 200, body: notOk("Internal error; please try again later") };
    case "unavailable":
      // A lost database or a statement timeout: 503 (with Retry-After), so clients and proxies retry it.
      return { status: 503, body: notOk(message) };
    case "not-found":
      // A path nothing serves is Blockscout's 404 in its RPC envelope (never a 200 a probe or client takes for
      // success).
      return { status: 404, body: { status: "0", message: "Not found", result: null } };
    default:
      return { status: 200, body: notOk(message) };
  }
}
