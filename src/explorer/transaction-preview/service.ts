import type { Hex } from "viem";
import type { ExplorerDeps } from "../deps.js";
import { transactionByHash } from "../transaction/query.js";
import { renderTransactions } from "../transaction/service.js";
import { type PreviewOptions, previewView, type TransactionPreview } from "./view.js";

/** `/transactions/{h}/preview`: null when the hash is not indexed (404). */
export async function transactionPreview(
  deps: ExplorerDeps,
  hash: Hex,
  o: PreviewOptions,
): Promise<TransactionPreview | null> {
  const row = await transactionByHash(deps.db, hash);
  if (!row) return null;
  const [tx] = await renderTransactions(deps, [row]);
  return tx ? previewView(tx, o) : null;
}
