import { Type } from "@sinclair/typebox";

export { ActixErrorBody as ErrorBody } from "../shared/actix-errors.js";

export const Chain = Type.Object({
  id: Type.String(),
  name: Type.String(),
  iconUrl: Type.String(),
  isTestnet: Type.Boolean(),
});
export const Compiler = Type.Object({ version: Type.String(), evmVersions: Type.Array(Type.String()) });

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

export const SolidityMultiPartBody = Type.Object({
  contracts: Type.Array(ContractRef),
  compiler: Type.String(),
  evmVersion: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  optimizationRuns: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: 4294967295 }), Type.Null()]),
  ),
  sourceFiles: Type.Record(Type.String(), Type.String()),
  libraries: Type.Record(Type.String(), Type.String()),
});

export const VyperMultiPartBody = Type.Object({
  contracts: Type.Array(ContractRef),
  compiler: Type.String(),
  evmVersion: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  sourceFiles: Type.Record(Type.String(), Type.String()),
  interfaces: Type.Optional(Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()])),
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
