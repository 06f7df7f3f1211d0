import { Type } from "@sinclair/typebox";
import { type ActionAnswers, failAnswer, notOkAnswer, okAnswer, S } from "../answer-spec.js";

/** A verified contract as Blockscout's RPC ContractView writes it (sourceCodeItem in verifier-apis/etherscan/view.ts). */
const verifiedItem = Type.Object(
  {
    Address: S.address(),
    SourceCode: Type.String({ description: "The main file" }),
    ABI: Type.String({ description: "The ABI as JSON text" }),
    ContractName: Type.String(),
    CompilerVersion: Type.String({ description: 'e.g. "v0.8.26+commit.8a97fa7a"; Vyper: "vyper:0.4.0"' }),
    OptimizationUsed: Type.Union([Type.Literal("true"), Type.Literal("false")]),
    OptimizationRuns: Type.Optional(Type.Integer({ description: "Only when optimized" })),
    EVMVersion: Type.String(),
    FileName: Type.String(),
    ConstructorArguments: Type.Optional(
      Type.String({ pattern: "^([0-9a-f]{2})+$", description: "Only when given" }),
    ),
    ExternalLibraries: Type.Optional(Type.Array(S.item({ name: Type.String(), address_hash: S.address() }))),
    AdditionalSources: Type.Optional(
      Type.Array(S.item({ Filename: Type.String(), SourceCode: Type.String() }), { minItems: 1 }),
    ),
    IsProxy: Type.Union([Type.Literal("true"), Type.Literal("false")]),
    ImplementationAddress: Type.Optional(S.address()),
    ImplementationAddresses: Type.Optional(Type.Array(S.address())),
    CompilerSettings: Type.Object(
      {},
      { description: "The compiler settings the contract was verified with" },
    ),
  },
  { additionalProperties: false, description: "A verified contract" },
);

/** Blockscout's item for an address without verified sources: the address alone. */
const unverifiedItem = S.item({ Address: S.address() }, "Not verified: the address alone");

const VERIFICATION_FAILED = notOkAnswer(
  'Status "0": message "NOTOK" and the reason in `result` (also "Invalid request: …" for bad input), or Blockscout\'s error with the text in `message`',
);

const guid = (what: string) => Type.String({ minLength: 1, description: `The GUID to poll ${what} with` });

const published = [
  okAnswer(verifiedItem, "Verified before the answer: the contract as getsourcecode lists it"),
  notOkAnswer(
    'Not verified: "Smart-contract already verified.", "Address is not a smart-contract", "Something went wrong while publishing the contract: …", "… is required.", or still running (the GUID in `result`)',
  ),
];

/** `module=contract` actions: listcontracts (the index) and the verification actions (src/verifier-apis/etherscan). */
export const contractAnswers: ActionAnswers = {
  listcontracts: [
    okAnswer(
      Type.Array(
        Type.Union([
          S.item({
            Address: S.address(),
            ABI: Type.String({ description: "The ABI as JSON text" }),
            ContractName: Type.String(),
            CompilerVersion: Type.String(),
            OptimizationUsed: Type.Union([Type.Literal("1"), Type.Literal("0")]),
          }),
          S.item({ Address: S.address(), ABI: Type.Literal("Contract source code not verified") }),
        ]),
      ),
      "Contracts: verified ones in verification order, others in creation order",
    ),
    failAnswer("`filter` is not one of verified, unverified, empty, 1, 2, 3 (Blockscout's text)", 400),
    failAnswer('"Result window is too large, …": page x offset past 10,000'),
  ],
  verifysourcecode: [okAnswer(guid("checkverifystatus"), "Queued: the GUID"), VERIFICATION_FAILED],
  checkverifystatus: [
    okAnswer(
      Type.Union([Type.Literal("Pass - Verified"), Type.Literal("Already Verified")]),
      "The verification passed",
    ),
    notOkAnswer('"Pending in queue", "Fail - Unable to verify. …" (why after the prefix) or "Unknown UID"'),
  ],
  getabi: [
    okAnswer(Type.String({ description: "The ABI as JSON text" }), "A verified contract's ABI"),
    failAnswer('"Contract source code not verified"'),
    VERIFICATION_FAILED,
  ],
  getsourcecode: [
    okAnswer(
      Type.Array(Type.Union([verifiedItem, unverifiedItem]), { minItems: 1, maxItems: 1 }),
      "One item",
    ),
    VERIFICATION_FAILED,
  ],
  getcontractcreation: [
    okAnswer(
      Type.Array(
        S.item({
          contractAddress: S.address(),
          contractCreator: S.address(),
          txHash: S.hash(),
          blockNumber: S.decimal(),
          timestamp: S.decimal("Unix seconds"),
          contractFactory: S.orEmpty(S.address()),
          creationBytecode: S.data(),
        }),
        { maxItems: 10 },
      ),
      "The creations of the first 10 addresses the index knows",
    ),
    notOkAnswer('"No data found" (message and result), or bad input'),
  ],
  verifyproxycontract: [okAnswer(guid("checkproxyverification"), "Queued: the GUID"), VERIFICATION_FAILED],
  checkproxyverification: [
    okAnswer(Type.String(), "The implementation found (the proxy and its implementation named)"),
    notOkAnswer(
      '"Pending in queue", "Unknown UID" or "A corresponding implementation contract was … not detected"',
    ),
  ],
  verify: published,
  verify_via_sourcify: published,
  verify_vyper_contract: published,
};
