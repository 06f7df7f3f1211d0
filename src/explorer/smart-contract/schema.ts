import { Type } from "@sinclair/typebox";
import { AddressObjectSchema, OrNull } from "../objects/address-schema.js";

const NullableString = OrNull(Type.String());

/** One item of `/smart-contracts` (view.ts contractItemView). */
export const SmartContractListItemSchema = Type.Object({
  address: AddressObjectSchema,
  certified: Type.Boolean(),
  coin_balance: Type.String(),
  compiler_version: Type.String(),
  language: Type.String(),
  has_constructor_args: Type.Boolean(),
  optimization_enabled: Type.Boolean(),
  transactions_count: OrNull(Type.Integer()),
  verified_at: Type.String(),
  market_cap: Type.Null(),
  license_type: NullableString,
  reputation: Type.String(),
});

export const SmartContractsPageSchema = Type.Object({
  items: Type.Array(SmartContractListItemSchema),
  next_page_params: OrNull(Type.Object({ smart_contract_id: Type.Integer(), items_count: Type.Integer() })),
});

/** `/smart-contracts/counters` (service.ts contractsCounters): decimal strings. */
export const SmartContractsCountersSchema = Type.Object({
  smart_contracts: Type.String(),
  verified_smart_contracts: Type.String(),
  new_smart_contracts_24h: Type.String(),
  new_verified_smart_contracts_24h: Type.String(),
});

/**
 * `/smart-contracts/{h}` (view.ts): a verified contract with its sources, settings and match, or the code of an
 * unverified one (the members both share are listed; the verified view adds the rest).
 */
export const SmartContractSchema = Type.Object({
  deployed_bytecode: NullableString,
  creation_bytecode: NullableString,
  is_self_destructed: Type.Boolean(),
  is_verified: Type.Boolean(),
  is_fully_verified: Type.Boolean(),
  is_partially_verified: Type.Boolean(),
  abi: Type.Unknown({ description: "the ABI (array) or null" }),
  name: NullableString,
  compiler_version: Type.Optional(Type.String()),
  evm_version: Type.Optional(NullableString),
  optimization_enabled: Type.Optional(Type.Boolean()),
  optimization_runs: Type.Optional(OrNull(Type.Integer())),
  verified_at: Type.Optional(Type.String()),
  source_code: Type.Optional(Type.String()),
  file_path: Type.Optional(Type.String()),
  additional_sources: Type.Optional(Type.Array(Type.Unknown())),
  constructor_args: Type.Optional(NullableString),
  decoded_constructor_args: Type.Optional(Type.Unknown()),
  compiler_settings: Type.Optional(Type.Unknown()),
  language: Type.Optional(Type.String()),
  match_type: Type.Optional(Type.String()),
});
