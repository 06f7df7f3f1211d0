import { Type } from "@sinclair/typebox";

// Request bodies of eth-bytecode-db's v2 API (blockscout-rs eth-bytecode-db-proto/proto/v2/eth-bytecode-db.proto),
// in proto3's JSON mapping. Objects keep members they do not name: Blockscout's backend sends proto-reserved ones
// (`libraries`). int64 members arrive as strings (the backend's `blockNumber`) or numbers; both are accepted.

const HEX = "^(0x)?([0-9a-fA-F]{2})*$";
const opt = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
const int64 = Type.Optional(Type.Union([Type.String({ pattern: "^-?\\d+$" }), Type.Integer(), Type.Null()]));

export const Bytecode = Type.String({ pattern: HEX, maxLength: 2 * 1024 * 1024 });
export const BytecodeType = Type.Union([Type.Literal("CREATION_INPUT"), Type.Literal("DEPLOYED_BYTECODE")]);

/** VerificationMetadata: what the explorer knows about the contract; every member optional. */
export const Metadata = Type.Object({
  chainId: Type.Optional(Type.Union([Type.String(), Type.Integer(), Type.Null()])),
  contractAddress: opt(Type.String({ pattern: HEX })),
  transactionHash: opt(Type.String({ pattern: HEX })),
  blockNumber: int64,
  transactionIndex: int64,
  deployer: opt(Type.String({ pattern: HEX })),
  creationCode: opt(Type.String({ pattern: HEX })),
  runtimeCode: opt(Type.String({ pattern: HEX })),
});

const verifyBase = {
  bytecode: Bytecode,
  bytecodeType: BytecodeType,
  compilerVersion: Type.String({ minLength: 1 }),
  metadata: Type.Optional(Type.Union([Metadata, Type.Null()])),
};
const files = Type.Record(Type.String(), Type.String());

export const SolidityMultiPartBody = Type.Object({
  ...verifyBase,
  evmVersion: opt(Type.String()),
  optimizationRuns: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: 2147483647 }), Type.Null()]),
  ),
  sourceFiles: files,
});
export const StandardJsonBody = Type.Object({ ...verifyBase, input: Type.String() });
export const VyperMultiPartBody = Type.Object({
  ...verifyBase,
  evmVersion: opt(Type.String()),
  sourceFiles: files,
  interfaces: Type.Optional(Type.Union([files, Type.Null()])),
});

export const SourcifyVerifyBody = Type.Object({
  address: Type.String(),
  chain: Type.String(),
  files,
  chosenContract: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
});

export const SearchBody = Type.Object({
  bytecode: Bytecode,
  bytecodeType: BytecodeType,
  metadata: Type.Optional(Type.Union([Metadata, Type.Null()])),
});
export const SearchAllBody = Type.Object({
  bytecode: Bytecode,
  bytecodeType: BytecodeType,
  chain: Type.Optional(Type.String()),
  address: Type.Optional(Type.String()),
  onlyLocal: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  metadata: Type.Optional(Type.Union([Metadata, Type.Null()])),
});
export const ChainAddressBody = Type.Object({ chain: Type.String(), address: Type.String() });

export const Source = Type.Object({
  fileName: Type.String(),
  contractName: Type.String(),
  compilerVersion: Type.String(),
  compilerSettings: Type.String(),
  sourceType: Type.Union([Type.Literal("SOLIDITY"), Type.Literal("VYPER"), Type.Literal("YUL")]),
  sourceFiles: files,
  abi: Type.Union([Type.String(), Type.Null()]),
  constructorArguments: Type.Union([Type.String(), Type.Null()]),
  matchType: Type.Union([Type.Literal("FULL"), Type.Literal("PARTIAL")]),
  compilationArtifacts: Type.String(),
  creationInputArtifacts: Type.String(),
  deployedBytecodeArtifacts: Type.String(),
  isBlueprint: Type.Boolean(),
  libraries: files,
});
export const VerifyResponse = Type.Object({
  message: Type.String(),
  status: Type.Union([Type.Literal("SUCCESS"), Type.Literal("FAILURE")]),
  source: Type.Optional(Source),
});
export const SearchResponse = Type.Object({ sources: Type.Array(Source) });
export { ActixErrorBody as ErrorBody } from "../shared/actix-errors.js";
