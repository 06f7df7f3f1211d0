import type { Address } from "viem";
import { NEWEST_CREATION_ORDER } from "../../chain-store/creations.js";
import { toBytea } from "../../db/bytes.js";
import type { Queryable } from "../../db/db.js";
import { type AddressFactColumns, addressFactsSubquery } from "../objects/address-facts.js";
import { TOKEN_COLUMNS, type TokenColumns } from "../objects/token-view.js";

export type AddressRow = TokenColumns &
  AddressFactColumns & {
    creator: Uint8Array | null;
    creation_tx: Uint8Array | null;
    /** The newest creation left no code (its constructor self-destructed, or returned nothing). */
    code_gone: boolean | null;
    has_logs: boolean;
    has_tokens: boolean;
    has_token_transfers: boolean;
    has_validated_blocks: boolean;
    has_withdrawals: boolean;
  };

/** GET /addresses/{h} in one statement: creation, the has_* flags, the token columns and the address's table facts. */
export async function addressRow(db: Queryable, address: Address): Promise<AddressRow> {
  const [row] = await db.query<AddressRow>(
    `select cr.creator, cr.transaction_hash as creation_tx, cr.code_gone,
       exists (select 1 from logs where address = $1) as has_logs,
       (exists (select 1 from token_holdings where holder = $1 and value > 0)
         or exists (select 1 from token_fungible_balances where holder = $1 and value > 0)) as has_tokens,
       (exists (select 1 from token_transfers where from_address = $1)
         or exists (select 1 from token_transfers where to_address = $1)) as has_token_transfers,
       exists (select 1 from blocks where miner = $1) as has_validated_blocks,
       exists (select 1 from withdrawals where address = $1) as has_withdrawals,
       ${TOKEN_COLUMNS}, o.*
     from (select 1) one left join tokens t on t.address = $1 cross join ${addressFactsSubquery("$1")} o
       left join lateral (select creator, transaction_hash, coalesce(length(runtime_code), 0) = 0 as code_gone
         from contract_creations where address = $1 order by ${NEWEST_CREATION_ORDER} limit 1) cr on true`,
    [toBytea(address)],
    // A dozen subqueries: planning costs more than running them, so the plan is kept per connection.
    { prepare: true },
  );
  return row!;
}
