import { type TSchema, Type } from "@sinclair/typebox";
import { ActixErrorBody } from "../verifier-apis/shared/actix-errors.js";

// The aggregator's messages (multichain-aggregator.proto, cluster-explorer.proto), for the API document; answers are
// written as they are (dialectScope), the schemas never filter them.

const OrNull = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

const ChainSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  explorer_url: Type.String(),
  icon_url: Type.String(),
});
export const ChainsSchema = Type.Object({ items: Type.Array(ChainSchema) });

const AddressSchema = Type.Object({
  hash: Type.String(),
  domain_info: Type.Null(),
  contract_name: OrNull(Type.String()),
  token_name: OrNull(Type.String()),
  token_type: Type.String(),
  is_contract: Type.Boolean(),
  is_verified_contract: Type.Boolean(),
  is_token: Type.Boolean(),
  chain_id: Type.String(),
});
const HashSchema = Type.Object({
  hash: Type.String(),
  hash_type: Type.Union([Type.Literal("HASH_TYPE_BLOCK"), Type.Literal("HASH_TYPE_TRANSACTION")]),
  chain_id: Type.String(),
});
const BlockNumberSchema = Type.Object({ chain_id: Type.String(), block_number: Type.String() });
const TokenSchema = Type.Object({
  address: Type.String(),
  icon_url: Type.Null(),
  name: OrNull(Type.String()),
  symbol: OrNull(Type.String()),
  chain_id: Type.String(),
  is_verified_contract: Type.Boolean(),
});

export const QuickSearchSchema = Type.Object({
  addresses: Type.Array(AddressSchema),
  blocks: Type.Array(HashSchema),
  transactions: Type.Array(HashSchema),
  block_numbers: Type.Array(BlockNumberSchema),
  dapps: Type.Array(Type.Never()),
  tokens: Type.Array(TokenSchema),
  nfts: Type.Array(AddressSchema),
  domains: Type.Array(Type.Never()),
});

const list = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    next_page_params: OrNull(Type.Object({ page_token: Type.String(), page_size: Type.Integer() })),
  });
export const AddressListSchema = list(AddressSchema);
export const HashListSchema = list(HashSchema);
export const BlockNumberListSchema = list(BlockNumberSchema);
export const TokenListSchema = list(TokenSchema);

export const AggregatedAddressSchema = Type.Object({
  hash: Type.String(),
  chain_infos: Type.Record(
    Type.String(),
    Type.Object({
      coin_balance: Type.String(),
      is_contract: Type.Boolean(),
      is_verified: Type.Boolean(),
      contract_name: OrNull(Type.String()),
    }),
  ),
  has_tokens: Type.Boolean(),
  has_interop_message_transfers: Type.Boolean(),
  coin_balance: Type.String(),
  exchange_rate: Type.Null(),
  domains: Type.Array(Type.Never()),
});

const AggregatedTokenSchema = Type.Object({
  address_hash: Type.String(),
  circulating_market_cap: Type.Null(),
  decimals: OrNull(Type.String()),
  holders_count: OrNull(Type.String()),
  icon_url: Type.Null(),
  name: OrNull(Type.String()),
  symbol: OrNull(Type.String()),
  total_supply: OrNull(Type.String()),
  type: Type.String(),
  exchange_rate: Type.Null(),
  chain_infos: Type.Record(
    Type.String(),
    Type.Object({
      holders_count: OrNull(Type.String()),
      total_supply: OrNull(Type.String()),
      is_verified: Type.Boolean(),
      contract_name: OrNull(Type.String()),
    }),
  ),
});

export const ClusterQuickSearchSchema = Type.Object({
  addresses: Type.Array(AggregatedAddressSchema),
  blocks: Type.Array(HashSchema),
  transactions: Type.Array(HashSchema),
  block_numbers: Type.Array(BlockNumberSchema),
  dapps: Type.Array(Type.Never()),
  tokens: Type.Array(AggregatedTokenSchema),
  nfts: Type.Array(AggregatedTokenSchema),
  domains: Type.Array(Type.Never()),
});

export const HealthSchema = Type.Object({ status: Type.String() });

/** A list's query: the text, the chains (repeated or comma-separated), the page. */
export const ListQuerySchema = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 1024 })),
  chain_id: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  page_size: Type.Optional(Type.String()),
  page_token: Type.Optional(Type.String({ maxLength: 4096 })),
});

export const ErrorSchema = ActixErrorBody;
