import { Type } from "@sinclair/typebox";
import { AddressParamSchema } from "../objects/address-schema.js";
import { TokenInfoSchema } from "../objects/token-schema.js";

const S = Type.Optional(Type.String());
const NULLABLE_INDEX = Type.Optional(Type.String({ pattern: "^([0-9]{1,10}|null)?$" }));

/**
 * The query of `/advanced-filters` and `/csv` (AdvancedFilterController's parameters): comma lists as strings,
 * unknown entries dropped by the service; the keyset members are checked as Blockscout checks them (422).
 * The frontend also sends `age` (its preset) and the symbols of the tokens it names; they are accepted and unused.
 */
export const AdvancedFilterQuery = Type.Object(
  {
    transaction_types: S,
    methods: S,
    methods_names: S,
    age: S,
    age_from: S,
    age_to: S,
    from_address_hashes_to_include: S,
    from_address_hashes_to_exclude: S,
    to_address_hashes_to_include: S,
    to_address_hashes_to_exclude: S,
    address_relation: S,
    amount_from: S,
    amount_to: S,
    token_contract_address_hashes_to_include: S,
    token_contract_address_hashes_to_exclude: S,
    token_contract_symbols_to_include: S,
    token_contract_symbols_to_exclude: S,
    block_number: Type.Optional(Type.String({ pattern: "^[0-9]{1,15}$" })),
    transaction_index: Type.Optional(Type.String({ pattern: "^[0-9]{1,10}$" })),
    internal_transaction_index: NULLABLE_INDEX,
    token_transfer_index: NULLABLE_INDEX,
    token_transfer_batch_index: NULLABLE_INDEX,
    items_count: Type.Optional(Type.Integer({ minimum: 1 })),
    recaptcha_response: S,
    apikey: S,
    key: S,
  },
  { additionalProperties: true },
);

const Int = Type.String({ pattern: "^[0-9]+$" });
const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Index = OrNull(Type.Integer());

/** The frontend's AdvancedFilterResponseItem (types/api/advancedFilter.ts) plus the members Blockscout adds. */
export const AdvancedFilterItemSchema = Type.Object({
  fee: OrNull(Int),
  from: AddressParamSchema,
  created_contract: Type.Optional(OrNull(AddressParamSchema)),
  hash: Type.String({ pattern: "^0x[0-9a-f]{64}$" }),
  method: OrNull(Type.String()),
  timestamp: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$" }),
  // A creation has no recipient: Blockscout sends null where the type says AddressParam.
  to: OrNull(AddressParamSchema),
  token: OrNull(TokenInfoSchema),
  total: OrNull(
    Type.Object({ decimals: Type.Optional(OrNull(Type.String())), value: Type.Optional(OrNull(Int)) }),
  ),
  type: Type.String(),
  value: OrNull(Int),
  status: Type.String(),
  block_number: Type.Integer(),
  transaction_index: Type.Integer(),
  internal_transaction_index: Index,
  token_transfer_index: Index,
  token_transfer_batch_index: Index,
});

export const AdvancedFilterResponseSchema = Type.Object({
  items: Type.Array(AdvancedFilterItemSchema),
  search_params: Type.Object({
    methods: Type.Record(Type.String(), Type.String()),
    tokens: Type.Record(Type.String(), TokenInfoSchema),
  }),
  next_page_params: OrNull(
    Type.Object({
      block_number: Type.Integer(),
      internal_transaction_index: Index,
      token_transfer_index: Index,
      token_transfer_batch_index: Index,
      transaction_index: Type.Integer(),
      items_count: Type.Integer(),
    }),
  ),
});

/** The frontend's AdvancedFilterMethodsResponse. */
export const AdvancedFilterMethodsSchema = Type.Array(
  Type.Object({ method_id: Type.String(), name: Type.Optional(Type.String()) }),
);

export const MethodsQuery = Type.Object(
  { q: Type.Optional(Type.String()), apikey: S, key: S },
  { additionalProperties: true },
);
