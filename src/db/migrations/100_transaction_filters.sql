-- /api/v2/transactions?type=…&method=… (Blockscout's type and method filters): the facts a type names that are not
-- columns already, kept with the transaction by the indexer (src/indexer/stages/core/transaction-facts.ts), so a
-- filtered page is a range scan of an index holding only the matching transactions, newest first.
--   has_token_transfers  the transaction has token transfer rows (token_transfer)
--   to_is_contract       its recipient is a contract as the address objects say: created in the index, a token or
--                        a detected proxy (contract_call); moves when an address becomes or stops being one
--   creates_token        the contract it created is a token (token_creation); set when the token is first seen
alter table transactions
  add column has_token_transfers boolean not null default false,
  add column to_is_contract boolean not null default false,
  add column creates_token boolean not null default false;

-- One-time backfill of an index written before this migration.
update transactions t set has_token_transfers = true
  where t.hash in (select transaction_hash from token_transfers);
update transactions t set to_is_contract = true
  where t.to_address in (select address from contract_creations union select address from tokens
    union select address from address_proxies);
update transactions t set creates_token = true
  where t.contract_address in (select address from tokens);

-- One partial index per type, keyed like the list ((block_number, index), scanned backwards); the predicates are
-- the ones src/explorer/transaction/filters.ts writes, so the planner matches them.
create index transactions_coin_transfer_idx on transactions (block_number, index) where value > 0;
create index transactions_contract_call_idx on transactions (block_number, index) where to_is_contract;
create index transactions_contract_creation_idx on transactions (block_number, index) where to_address is null;
create index transactions_token_transfer_idx on transactions (block_number, index) where has_token_transfers;
create index transactions_token_creation_idx on transactions (block_number, index) where creates_token;
create index transactions_blob_idx on transactions (block_number, index) where type = 3;
-- method=: the selector (first 4 bytes of the input) then the list's key; transactions without one are left out.
create index transactions_method_idx on transactions (substring(input from 1 for 4), block_number, index)
  where length(input) >= 4;
