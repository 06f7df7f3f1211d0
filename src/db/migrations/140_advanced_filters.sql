-- /api/v2/advanced-filters?methods=0x…: the transactions and the internal transactions that call one of a few
-- 4-byte selectors, newest first. Each selector is one backward range scan of an index (transactions: migration
-- 100's transactions_method_idx), so a page costs what the first does whatever the selector's rarity. The internal
-- index leaves out the top-level calls (index 0 of type call), which repeat their transaction and which no list shows.
create index internal_transactions_selector_idx
  on internal_transactions ((substring(input from 1 for 4)), block_number desc, transaction_index desc, index desc)
  where type <> 'call' or index > 0;

-- scope: shared
-- /api/v2/advanced-filters/methods?q=name: verified ABIs holding a function of that name (jsonb containment).
create index verified_compilations_abi_idx on verified_compilations using gin (abi jsonb_path_ops);
