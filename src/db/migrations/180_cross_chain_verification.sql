-- Verify once, verified everywhere (issue 40): a contract verified on one chain is copied, as an automatic
-- verification, to the contracts of every indexed chain that were deployed earlier with the same code (later ones
-- the indexer's verified-contracts stage copies as they come). The copies are found by the first 32 bytes of their
-- creation input, which equal those of the verified contract's compiled creation code (code-keys.ts), through this
-- index; each chain's pass keeps how far it has read the verified store.
create index contract_creations_init_prefix_idx on contract_creations (substring(init_code from 1 for 32));
create table cross_chain_verification (
  only_row            boolean primary key default true check (only_row),
  last_verified_id    int8 not null
);
