import type { Address, Hash } from "viem";
import type { FetchedBlock } from "../../../chain/types.js";
import { stageSlot } from "../../pipeline/extension.js";
import {
  type DecodedTransfer,
  decodeTokenLog,
  higherType,
  type TokenType,
  ZERO_ADDRESS,
} from "./token-decode.js";

export type TransferRow = DecodedTransfer & { blockNumber: number; logIndex: number; transactionHash: Hash };

export type TokenSeen = { address: Address; type: TokenType; firstBlock: number; mintedOrBurned: boolean };

type Malformed = { blockNumber: number; logIndex: number; address: Address; reason: string };

/** What one block's logs tell of token movements, in log order. */
export type BlockTokenLogs = { transfers: TransferRow[]; malformed: Malformed[] };

export type TokenRows = BlockTokenLogs & { tokens: TokenSeen[] };

/**
 * The core stage's afterFetch result: a block's token logs, decoded once when the block arrives. The core stage
 * reads which transactions have transfers from it, the tokens stage the transfers it writes.
 */
export const TOKEN_LOGS = stageSlot<BlockTokenLogs>("core");

/** The token transfers and malformed token events of one block's logs. Pure. */
export function decodeBlockTokenLogs(fetched: FetchedBlock): BlockTokenLogs {
  const out: BlockTokenLogs = { transfers: [], malformed: [] };
  const blockNumber = Number(fetched.block.number);
  for (const r of fetched.receipts) {
    for (const log of r.logs ?? []) {
      if (log.removed) continue;
      const d = decodeTokenLog(log);
      if (d === null) continue;
      const logIndex = Number(log.logIndex);
      if (!d.ok) out.malformed.push({ blockNumber, logIndex, address: log.address, reason: d.reason });
      else
        for (const t of d.transfers)
          out.transfers.push({ ...t, blockNumber, logIndex, transactionHash: log.transactionHash });
    }
  }
  return out;
}

/** A block's token logs: decoded when it arrived, or here for a block fetched without the core stage's afterFetch. */
export function tokenLogsOf(fetched: FetchedBlock): BlockTokenLogs {
  return TOKEN_LOGS.of(fetched) ?? decodeBlockTokenLogs(fetched);
}

/** Token transfers and token contracts of a batch, in chain order. Pure (the rows are not to be changed). */
export function deriveTokenRows(batch: readonly FetchedBlock[]): TokenRows {
  const transfers: TransferRow[] = [];
  const malformed: Malformed[] = [];
  const tokens = new Map<Address, TokenSeen>();
  for (const b of batch) {
    const logs = tokenLogsOf(b);
    malformed.push(...logs.malformed);
    for (const t of logs.transfers) {
      transfers.push(t);
      const seen = tokens.get(t.token);
      const mb = t.from === ZERO_ADDRESS || t.to === ZERO_ADDRESS;
      if (seen) {
        seen.type = higherType(seen.type, t.kind);
        seen.mintedOrBurned ||= mb;
      } else
        tokens.set(t.token, {
          address: t.token,
          type: t.kind,
          firstBlock: t.blockNumber,
          mintedOrBurned: mb,
        });
    }
  }
  return { transfers, tokens: [...tokens.values()], malformed };
}
