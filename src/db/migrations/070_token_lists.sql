-- Keyset indexes of the token pages (src/explorer/token-holders, token-list): each page is one range scan.
-- Holders of a fungible token (ERC-20, ERC-404), value then holder descending (upstream's order).
create index token_fungible_balances_holders_idx on token_fungible_balances (token_address, value, holder) where value > 0;
-- Holders of an id (instance holders), and per-id holdings of a whole ERC-1155 token.
create index token_holdings_id_holders_idx on token_holdings (token_address, token_id, value, holder);
create index token_holdings_holders_idx on token_holdings (token_address, value, holder, token_id);
-- The token list: upstream orders by holders desc, name asc (nulls last), address asc; market cap and fiat value,
-- which come first there, are always null here. All keys ascending so one row comparison pages it.
create index tokens_list_idx on tokens ((-holders_count), (name is null), (coalesce(name, '')), address);

-- ERC-721 ids held per holder (the token's balanceOf), kept from transfers: upstream's holders list of an ERC-721
-- shows one row per holder with this count, by count then holder descending.
create table token_erc721_balances (
  holder         bytea not null,
  token_address  bytea not null,
  value          numeric not null,
  primary key (holder, token_address)
);
create index token_erc721_balances_holders_idx on token_erc721_balances (token_address, value, holder) where value > 0;
insert into token_erc721_balances (holder, token_address, value)
  select holder, token_address, count(*) from token_holdings where token_type = 'ERC-721' and value > 0
  group by holder, token_address;
