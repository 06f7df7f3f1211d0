import { Type } from "@sinclair/typebox";
import { AddressParamSchema, OrNull } from "../objects/address-schema.js";

const Hash = Type.String({ pattern: "^0x[0-9a-f]{64}$" });
const Wei = Type.String({ pattern: "^-?[0-9]+$" });

/** The frontend's DecodedInput (decodedInput.ts). */
export const DecodedInputSchema = Type.Object({
  method_call: Type.String(),
  method_id: Type.String(),
  parameters: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), value: Type.Unknown() })),
});

/**
 * The frontend's TxAuthorization (transaction.ts, v2.0.3) and the members Blockscout's SignedAuthorization adds:
 * `status` is the protocol's verdict on it.
 */
export const TxAuthorizationSchema = Type.Object({
  address_hash: Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" }),
  authority: OrNull(Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" })),
  chain_id: Type.Integer({ minimum: 0 }),
  nonce: Type.Integer({ minimum: 0 }),
  v: Type.Integer({ minimum: 0 }),
  r: Wei,
  s: Wei,
  status: Type.Union([
    Type.Literal("ok"),
    Type.Literal("invalid_chain_id"),
    Type.Literal("invalid_nonce"),
    Type.Literal("invalid_signature"),
  ]),
});

/** The frontend's Transaction (transaction.ts, v2.0.3): every required member with its type. */
export const TransactionSchema = Type.Object({
  to: OrNull(AddressParamSchema),
  created_contract: OrNull(AddressParamSchema),
  hash: Hash,
  result: Type.String(),
  confirmations: Type.Integer({ minimum: 0 }),
  status: Type.Union([Type.Literal("ok"), Type.Literal("error"), Type.Null()]),
  block_number: OrNull(Type.Integer()),
  timestamp: OrNull(Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$" })),
  confirmation_duration: OrNull(Type.Array(Type.Number())),
  from: AddressParamSchema,
  value: Wei,
  fee: Type.Object({ type: Type.String(), value: OrNull(Wei) }),
  gas_price: OrNull(Wei),
  type: OrNull(Type.Integer()),
  gas_used: OrNull(Wei),
  gas_limit: Wei,
  max_fee_per_gas: OrNull(Wei),
  max_priority_fee_per_gas: OrNull(Wei),
  priority_fee: OrNull(Wei),
  base_fee_per_gas: OrNull(Wei),
  transaction_burnt_fee: OrNull(Wei),
  nonce: Type.Integer(),
  position: OrNull(Type.Integer()),
  revert_reason: OrNull(Type.Union([Type.Object({ raw: OrNull(Type.String()) }), DecodedInputSchema])),
  raw_input: Type.String({ pattern: "^0x[0-9a-f]*$" }),
  decoded_input: OrNull(DecodedInputSchema),
  token_transfers: OrNull(Type.Array(Type.Unknown())),
  // Blockscout sends null in lists (no preview loaded), a boolean on the details page.
  token_transfers_overflow: OrNull(Type.Boolean()),
  exchange_rate: OrNull(Type.String()),
  method: OrNull(Type.String()),
  transaction_types: Type.Array(Type.String()),
  transaction_tag: OrNull(Type.String()),
  actions: Type.Array(Type.Unknown()),
  has_error_in_internal_transactions: OrNull(Type.Boolean()),
  // OP stack (the frontend's optimism fields; Blockscout sends them on the details page of an OP chain).
  l1_fee: Type.Optional(Wei),
  l1_fee_scalar: Type.Optional(Type.String({ pattern: "^[0-9]+(\\.[0-9]+)?$" })),
  l1_gas_price: Type.Optional(Wei),
  l1_gas_used: Type.Optional(Wei),
  // blob transaction fields (EIP-4844), present on type-3 transactions
  blob_versioned_hashes: Type.Optional(Type.Array(Hash)),
  blob_gas_used: Type.Optional(Wei),
  blob_gas_price: Type.Optional(Wei),
  burnt_blob_fee: Type.Optional(Wei),
  max_fee_per_blob_gas: Type.Optional(Wei),
  // EIP-7702: the frontend's TxAuthorization (Blockscout adds v, r, s and the status)
  authorization_list: Type.Optional(Type.Array(TxAuthorizationSchema)),
});

const page = <C extends ReturnType<typeof Type.Object>>(cursor: C) =>
  Type.Object({ items: Type.Array(TransactionSchema), next_page_params: OrNull(cursor) });

const TxCursor = { block_number: Type.Integer(), index: Type.Integer(), items_count: Type.Integer() };

/** TransactionsResponseValidated / BlockTransactionsResponse. */
export const TransactionsPageSchema = page(Type.Object(TxCursor));

/**
 * AddressTransactionsResponse, with the keys Blockscout's next_page_params has beyond the frontend's type (every key
 * a sort pages by, whatever the sort: Transaction.address_transactions_next_page_params).
 */
export const AddressTransactionsPageSchema = page(
  Type.Object({
    ...TxCursor,
    fee: OrNull(Type.String({ pattern: "^[0-9]+$" })),
    value: Type.String({ pattern: "^[0-9]+$" }),
    hash: Type.String({ pattern: "^0x[0-9a-f]{64}$" }),
    inserted_at: Type.String(),
  }),
);
export const TransactionListSchema = Type.Array(TransactionSchema);

/** RawTrace[] (rawTrace.ts): the members every frame has. */
export const RawTraceSchema = Type.Array(
  Type.Object({
    action: Type.Object({ from: Type.String(), gas: Type.String(), value: Type.String() }),
    subtraces: Type.Integer(),
    traceAddress: Type.Array(Type.Integer()),
    type: Type.String(),
  }),
);
