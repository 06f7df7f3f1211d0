import type { AddressObject } from "../objects/address-view.js";
import type { TransactionObject } from "../transaction/view.js";

export type PreviewAddress = {
  hash: string;
  name: string | null;
  ens_domain_name: string | null;
  metadata: unknown;
};

export type TransactionPreview = {
  status: "ok" | "error" | null;
  timestamp: string | null;
  method: string | null;
  from: PreviewAddress | null;
  to: PreviewAddress | null;
};

export type PreviewOptions = { decodeInput: boolean; preloadMetadata: boolean };

function previewAddress(a: AddressObject | null, o: PreviewOptions): PreviewAddress | null {
  if (!a) return null;
  // No ENS here (Lookout resolves no names); the metadata (public tags) only when asked for, as Blockscout preloads it.
  return {
    hash: a.hash,
    name: a.name,
    ens_domain_name: null,
    metadata: o.preloadMetadata ? a.metadata : null,
  };
}

/**
 * Blockscout's preview of a transaction: its status, time, method and both ends. The method is the decoded name
 * only with `decode_input`; otherwise the selector when the callee is a contract (Transaction.method_name without a
 * decoded input). Pure.
 */
export function previewView(tx: TransactionObject, o: PreviewOptions): TransactionPreview {
  const selector =
    tx.to?.is_contract && tx.raw_input.length >= 10 ? tx.raw_input.slice(0, 10).toLowerCase() : null;
  return {
    status: tx.status,
    timestamp: tx.timestamp,
    method: o.decodeInput ? tx.method : selector,
    from: previewAddress(tx.from, o),
    to: previewAddress(tx.to, o),
  };
}
