-- /api/v2/search matches words as Blockscout does: every word of the query is a prefix of a word of the token's
-- symbol and name, or of the verified contract's name (PostgreSQL full text, english configuration, `word:*`), so
-- "ether" finds "Wrapped Ether". GIN indexes on the same expressions serve the statements; the prefix indexes of
-- whole names are no longer used.
create index tokens_search_words_idx on tokens using gin (to_tsvector('english', symbol || ' ' || name))
  where name is not null and symbol is not null;
-- scope: shared
create index verified_compilations_search_words_idx on verified_compilations
  using gin (to_tsvector('english', contract_name));
-- scope: chain
drop index tokens_name_prefix_idx;
drop index tokens_symbol_prefix_idx;
-- scope: shared
drop index verified_compilations_name_prefix_idx;
