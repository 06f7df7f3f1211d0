import type { ChainConfig } from "../../config/chains.js";
import type { VerifyResponse } from "../../verifier/service/index.js";

/** Chain objects as Blockscout's proxy verifier shows them (ids as strings, configuration order). */
export function chainView(c: ChainConfig) {
  return {
    id: c.id,
    name: c.name,
    // Always a string, as upstream: empty when neither an icon nor an explorer is configured.
    iconUrl:
      c.iconUrl ?? (c.explorerUrl ? new URL("/assets/favicon/logo-icon.png", c.explorerUrl).toString() : ""),
    isTestnet: c.isTestnet,
  };
}

/** `{contractValidationResults}`, `{compilationFailure}` or `{contractVerificationResults}`: exactly one key. */
export function v1VerificationBody(r: VerifyResponse) {
  switch (r.kind) {
    case "validation":
      return { contractValidationResults: { items: r.items } };
    case "compilationFailure":
      return { compilationFailure: { message: r.message, errors: r.errors } };
    case "verification":
      // `sent` is the record for eth-bytecode-db's answer, not a member of the proxy verifier's item.
      return { contractVerificationResults: { items: r.items.map(({ sent: _, ...item }) => item) } };
  }
}
