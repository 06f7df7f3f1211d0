-- OP-stack members of transactions and receipts (CHAIN_TYPE=optimism, or found on the chain): one row per
-- transaction that has any, beside `transactions` (which other chain families share). Absent members stay null.
create table op_transactions (
  transaction_hash        bytea primary key,
  block_number            int8 not null,
  -- Deposits (type 0x7e): the L1 source, the coin minted to the sender before it runs, the system flag.
  is_deposit              boolean not null,
  source_hash             bytea,
  mint                    numeric,
  is_system_tx            boolean,
  deposit_nonce           numeric,
  deposit_receipt_version int4,
  -- The receipt's L1 data fee and its inputs (Bedrock: l1_fee_scalar; Ecotone/Fjord: the base and blob scalars).
  l1_fee                  numeric,
  l1_gas_price            numeric,
  l1_gas_used             numeric,
  l1_fee_scalar           numeric,
  l1_base_fee_scalar      numeric,
  l1_blob_base_fee        numeric,
  l1_blob_base_fee_scalar numeric,
  -- Isthmus: the operator fee's inputs; Jovian: the DA footprint scalar.
  operator_fee_scalar     numeric,
  operator_fee_constant   numeric,
  da_footprint_gas_scalar numeric
);
-- A reorganisation deletes by block.
create index op_transactions_block_idx on op_transactions (block_number);
