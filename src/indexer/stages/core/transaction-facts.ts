import { fromBytea } from "../../../db/bytes.js";
import { command, type Queryable } from "../../../db/db.js";

/*
 * Two facts of a transaction that the explorer's `type=` filters read from indexes (migration 100) and that depend
 * on other rows than the transaction's own: `to_is_contract` (contract_call) and `creates_token` (token_creation).
 * They say what the address objects say now: an address is a contract when it was created in the index, is a
 * token or is a detected proxy (address-facts.ts), and a created contract is a token once it is in `tokens`. So
 * they are set when a transaction is written, and moved for older transactions when an address becomes a contract
 * (created later than it was called, first seen as a token or a proxy) or stops being one (a reorganisation took
 * back the rows that made it one). Every change is inside the batch or reorg transaction.
 */

/**
 * SQL: the address in `a` is a contract by rows of blocks before `before` (a SQL expression). Scalar subqueries,
 * looked up per address and in turn until one finds a row: the planner turned `exists ... or exists ...` into
 * hashes of every row of each table (on a busy chain's 100,000 creations, a whole scan per batch, growing with the
 * chain), where a batch needs an index probe per address.
 */
const contractBefore = (a: string, before: string) => `coalesce(
    (select true from contract_creations c where c.address = ${a} and c.block_number < ${before} limit 1),
    (select true from tokens k where k.address = ${a} and k.first_block < ${before} limit 1),
    (select true from address_proxies p where p.address = ${a} and p.block_number < ${before} limit 1),
    false)`;

/** Above any block number. */
const NOW = "9223372036854775807";

/**
 * Of `addresses`, the contracts and the tokens as the stored rows say (called before a batch writes its own):
 * without duplicates in, the subsets out as lower-case 0x-hex.
 */
export async function contractsAndTokens(
  tx: Queryable,
  addresses: readonly Buffer[],
): Promise<{ contracts: Set<string>; tokens: Set<string> }> {
  const contracts = new Set<string>();
  const tokens = new Set<string>();
  if (!addresses.length) return { contracts, tokens };
  const rows = await tx.query<{ a: Uint8Array; token: boolean }>(
    `select a, coalesce((select true from tokens k where k.address = a), false) as token
     from unnest($1::bytea[]) a where ${contractBefore("a", NOW)}`,
    [addresses],
  );
  for (const r of rows) {
    const hex = fromBytea(r.a);
    contracts.add(hex);
    if (r.token) tokens.add(hex);
  }
  return { contracts, tokens };
}

/**
 * SQL, the parts of a WITH after CTE `from` (column `a`): sets `to_is_contract` to `value` on the transactions to
 * its addresses that say otherwise, found by a probe of the recipients' index per address and updated by row id.
 * As a join of the CTE to transactions (and as a lateral subquery, which the planner pulls up into the same join;
 * `offset 0` keeps it apart), the whole table was hashed whenever the statistics said an address receives many
 * transactions (a token does; a contract just created, almost none): a scan of every transaction per batch, 53 ms
 * at 300,000 transactions on PostgreSQL's defaults and growing with them.
 */
const setToIsContract = (from: string, value: boolean) => `found as materialized (
       select x.ctid from ${from}, lateral (select t.ctid from transactions t
         where t.to_address = ${from}.a and t.to_is_contract = ${!value} offset 0) x)
     update transactions t set to_is_contract = ${value}
     where t.ctid = any(array(select ctid from found))`;

/**
 * `addresses` have become contracts in the batch starting at block `from` (created, first seen as a token or as a
 * proxy): the transactions to those that were no contract before it are contract calls. Only such addresses are
 * looked up in the recipients' index, and until then few transactions go to an address that is no contract.
 */
export async function markNewContracts(
  tx: Queryable,
  addresses: readonly Buffer[],
  from: number,
): Promise<void> {
  if (!addresses.length) return;
  await command(
    tx,
    `with fresh as materialized (
       select distinct a from unnest($1::bytea[]) a where not ${contractBefore("a", "$2::int8")}),
     ${setToIsContract("fresh", true)}`,
    [addresses, from],
  );
}

/** Tokens first seen in the batch starting at block `from`: the transactions that created them created a token. */
export async function markNewTokens(
  tx: Queryable,
  addresses: readonly Buffer[],
  from: number,
): Promise<void> {
  if (!addresses.length) return;
  await markNewContracts(tx, addresses, from);
  await command(
    tx,
    `update transactions t set creates_token = true
     from tokens k join contract_creations c on c.address = k.address and c.kind = 'transaction'
     where k.address = any($1::bytea[]) and k.first_block >= $2 and t.hash = c.transaction_hash
       and not t.creates_token`,
    [addresses, from],
  );
}

/**
 * A reorganisation deleted rows that made `addresses` contracts (creations, tokens, proxies): those that no
 * remaining row makes one are no longer called as contracts. Each stage calls it after its own deletes; the last
 * one to delete an address's rows sees every other stage's rows for it already gone.
 */
export async function unmarkLostContracts(tx: Queryable, addresses: readonly Uint8Array[]): Promise<void> {
  if (!addresses.length) return;
  await command(
    tx,
    `with lost as materialized (
       select distinct a from unnest($1::bytea[]) a where not ${contractBefore("a", NOW)}),
     ${setToIsContract("lost", false)}`,
    [addresses],
  );
}

/** A reorganisation deleted the tokens `addresses`: the transactions that created them created no token. */
export async function unmarkLostTokens(tx: Queryable, addresses: readonly Uint8Array[]): Promise<void> {
  if (!addresses.length) return;
  await command(
    tx,
    `update transactions t set creates_token = false
     from contract_creations c
     where c.address = any($1::bytea[]) and c.kind = 'transaction' and t.hash = c.transaction_hash
       and t.creates_token`,
    [addresses],
  );
  await unmarkLostContracts(tx, addresses);
}
