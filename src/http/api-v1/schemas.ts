import { Type } from "@sinclair/typebox";

export const Chain = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    iconUrl: Type.Union([Type.String(), Type.Null()]),
    isTestnet: Type.Boolean(),
  },
  {},
);
export const Compiler = Type.Object({ version: Type.String(), evmVersions: Type.Array(Type.String()) }, {});
export const ErrorBody = Type.Object({ code: Type.Integer(), message: Type.String() });

export const ContractRef = Type.Object({
  // Upstream sends strings; numbers are accepted too (the spec's decision).
  chainId: Type.Union([Type.String(), Type.Integer()]),
  address: Type.String(),
});

/** `{contracts, compiler, input}` of both languages' standard-JSON routes (`input` is JSON in a string). */
export const StandardJsonBody = Type.Object({
  contracts: Type.Array(ContractRef),
  compiler: Type.String(),
  input: Type.String(),
});
