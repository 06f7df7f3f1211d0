import { type Address, getAddress } from "viem";
import { fromByteaOrNull, toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { getCoinBalanceSummary } from "../coin-balance/service.js";
import type { CoinBalanceSummary } from "../coin-balance/view.js";
import type { ExplorerDeps } from "../deps.js";
import {
  type AddressFactColumns,
  addressFactsSubquery,
  addressObjectsFromColumns,
} from "../objects/address-facts.js";
import type { AddressObject } from "../objects/address-view.js";
import {
  TOKEN_COLUMNS,
  type TokenColumns,
  type TokenObject,
  tokenFactsFromRow,
  tokenView,
} from "../objects/token-view.js";
import { NO_VERIFIED_CONTRACTS } from "../objects/verified-store.js";

export type AddressDetails = AddressObject &
  CoinBalanceSummary & {
    creator_address_hash: string | null;
    creation_transaction_hash: string | null;
    creation_status: "success" | null;
    token: TokenObject | null;
    exchange_rate: null;
    has_validated_blocks: boolean;
    has_logs: boolean;
    has_tokens: boolean;
    has_token_transfers: boolean;
    has_beacon_chain_withdrawals: boolean;
    watchlist_address_id: null;
  };

type FlagsRow = TokenColumns &
  AddressFactColumns & {
    creator: Uint8Array | null;
    creation_tx: Uint8Array | null;
    has_logs: boolean;
    has_tokens: boolean;
    has_token_transfers: boolean;
    has_validated_blocks: boolean;
    has_withdrawals: boolean;
  };

/**
 * GET /addresses/{h}: the address object plus creation, token, balance and the has_* flags (a stub if unknown).
 * The address object's table facts come with the flags in one statement; the verified-contract lookup and the
 * balance summary run alongside it.
 */
export async function addressDetails(
  db: Queryable,
  address: Address,
  deps: Omit<ExplorerDeps, "db"> & {
    coinBalance?: (db: Queryable, a: Address) => Promise<CoinBalanceSummary>;
  },
): Promise<AddressDetails> {
  const a = toBytea(address);
  const verifiedSelf = (deps.verified ?? NO_VERIFIED_CONTRACTS)([address.toLowerCase() as Address]);
  // A rejected lookup must not go unhandled while the other queries are still running.
  verifiedSelf.catch(() => {});
  const [[row], balance] = await Promise.all([
    db.query<FlagsRow>(
      `select (select creator from contract_creations where address = $1 order by block_number desc limit 1) as creator,
         (select transaction_hash from contract_creations where address = $1 order by block_number desc limit 1) as creation_tx,
         exists (select 1 from logs where address = $1) as has_logs,
         (exists (select 1 from token_holdings where holder = $1 and value > 0)
           or exists (select 1 from token_fungible_balances where holder = $1 and value > 0)) as has_tokens,
         (exists (select 1 from token_transfers where from_address = $1)
           or exists (select 1 from token_transfers where to_address = $1)) as has_token_transfers,
         exists (select 1 from blocks where miner = $1) as has_validated_blocks,
         exists (select 1 from withdrawals where address = $1) as has_withdrawals,
         ${TOKEN_COLUMNS}, o.*
       from (select 1) one left join tokens t on t.address = $1 cross join ${addressFactsSubquery("$1")} o`,
      [a],
      // A dozen subqueries: planning costs more than running them, so the plan is kept per connection.
      { prepare: true },
    ),
    (deps.coinBalance ?? getCoinBalanceSummary)(db, address),
  ]);
  const base = (await addressObjectsFromColumns([[address, row!]], deps, verifiedSelf)).get(
    address.toLowerCase() as Address,
  )!;
  const r = row!;
  return {
    ...base,
    ...balance,
    creator_address_hash: checksumOrNull(fromByteaOrNull(r.creator)),
    creation_transaction_hash: fromByteaOrNull(r.creation_tx),
    creation_status: r.creation_tx ? "success" : null,
    token: r.t_address ? tokenView(tokenFactsFromRow(address, r)) : null,
    exchange_rate: null,
    has_validated_blocks: r.has_validated_blocks,
    has_logs: r.has_logs,
    has_tokens: r.has_tokens,
    has_token_transfers: r.has_token_transfers,
    has_beacon_chain_withdrawals: r.has_withdrawals,
    watchlist_address_id: null,
  };
}

function checksumOrNull(a: string | null): string | null {
  return a ? getAddress(a) : null;
}
