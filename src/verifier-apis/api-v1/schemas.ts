import { Type } from "@sinclair/typebox";

export const Chain = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    iconUrl: Type.String(),
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

/** One of `contractValidationResults`, `compilationFailure`, `contractVerificationResults` (items as the service gives). */
export const VerifyResultBody = Type.Object(
  {
    contractValidationResults: Type.Optional(Type.Object({ items: Type.Array(Type.Unknown()) })),
    compilationFailure: Type.Optional(
      Type.Object({ message: Type.String(), errors: Type.Array(Type.String()) }),
    ),
    contractVerificationResults: Type.Optional(Type.Object({ items: Type.Array(Type.Unknown()) })),
  },
  { description: "Exactly one of the three keys" },
);
