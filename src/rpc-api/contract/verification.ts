import type { Params } from "../../http/etherscan-params.js";
import {
  checkVerifyStatus,
  type EtherscanApi,
  getAbi,
  getContractCreation,
  getSourceCode,
  verifySourceCode,
} from "../../verifier-apis/etherscan/actions.js";
import { checkProxyVerification, verifyProxyContract } from "../../verifier-apis/etherscan/proxy-actions.js";
import {
  verify,
  verifyViaSourcify,
  verifyVyperContract,
} from "../../verifier-apis/etherscan/publish-actions.js";
import type { Envelope } from "../../verifier-apis/etherscan/view.js";
import { type ActionParams, type ParamSpec, param } from "../param-spec.js";
import { type Actions, type Answer, fail } from "../reply.js";

type VerificationAction = (api: EtherscanApi, p: Params) => Promise<Envelope>;

/** The verification actions as `contract` module actions: unknown ones when the app serves no verifier. */
function contractActions(table: Readonly<Record<string, VerificationAction>>): Actions {
  return Object.fromEntries(
    Object.entries(table).map(([name, run]) => [
      name,
      async (deps, p): Promise<Answer> =>
        deps.verification ? run(deps.verification, p) : { httpStatus: 400, body: fail("Unknown action") },
    ]),
  );
}

/** Etherscan's verification and lookups for forge and hardhat-verify (src/verifier-apis/etherscan/actions.ts). */
export const verificationActions = contractActions({
  verifysourcecode: verifySourceCode,
  checkverifystatus: checkVerifyStatus,
  getabi: getAbi,
  getsourcecode: getSourceCode,
  getcontractcreation: getContractCreation,
});

/** Etherscan's proxy verification (src/verifier-apis/etherscan/proxy-actions.ts). */
export const proxyVerificationActions = contractActions({
  verifyproxycontract: verifyProxyContract,
  checkproxyverification: checkProxyVerification,
});

/** Blockscout's synchronous publish actions (src/verifier-apis/etherscan/publish-actions.ts). */
export const publishActions = contractActions({
  verify,
  verify_via_sourcify: verifyViaSourcify,
  verify_vyper_contract: verifyVyperContract,
});

const CHAIN = param.opt("chainid", "string", "The chain (default: the indexed one)");
const CONSTRUCTOR_ARGS = [
  param.opt("constructorArguements", "hex", "ABI-encoded constructor arguments (Etherscan's spelling)"),
  param.opt("constructorArguments", "hex", "ABI-encoded constructor arguments"),
];
const libraries = (name: string, address: string): ParamSpec[] => [
  param.opt(name, "string", "Library name (numbered 1 to 20; pairs with the address of the same number)"),
  param.opt(address, "address", "Library address (numbered 1 to 20)"),
];

/**
 * The verification actions' parameters (the OpenAPI document's `x-actions`), as src/verifier-apis/etherscan reads
 * them: Etherscan's names for `verifysourcecode`, Blockscout's camelCase for `verify`/`verify_vyper_contract`.
 */
export const verificationParams: ActionParams = {
  verifysourcecode: [
    param.req("contractaddress", "address", "The deployed contract"),
    param.req("sourceCode", "string", "The source (single file) or the standard JSON input"),
    {
      ...param.opt("codeformat", "string", "Source format (default solidity-single-file)"),
      enum: ["solidity-single-file", "solidity-standard-json-input", "vyper-json"],
    },
    param.req("contractname", "string", "Contract name (`path:Name` for standard JSON)"),
    param.req("compilerversion", "string", "Compiler version, e.g. v0.8.26+commit.8a97fa7a"),
    {
      ...param.opt("optimizationUsed", "string", "Single file: 1 when optimized"),
      enum: ["0", "1", "true", "false"],
    },
    param.opt("runs", "integer", "Single file: optimizer runs (default 200)"),
    param.opt("evmversion", "string", "Single file: EVM version (default: the compiler's)"),
    param.opt("evmVersion", "string", "Alias of evmversion"),
    param.opt("viaIR", "boolean", "Single file: compile through the IR pipeline"),
    ...CONSTRUCTOR_ARGS,
    ...libraries("libraryname1", "libraryaddress1"),
    CHAIN,
  ],
  checkverifystatus: [param.req("guid", "string", "The GUID verifysourcecode answered"), CHAIN],
  getabi: [param.req("address", "address", "The contract"), CHAIN],
  getsourcecode: [param.req("address", "address", "The contract"), CHAIN],
  getcontractcreation: [
    {
      ...param.opt("contractaddresses", "string", "Up to 5 comma-separated contract addresses"),
      required: "one-of:addresses",
    },
    { ...param.opt("address", "string", "Alias of contractaddresses"), required: "one-of:addresses" },
    CHAIN,
  ],
  verifyproxycontract: [
    param.req("address", "address", "The proxy (its implementation is read at the next block)"),
    param.opt("expectedimplementation", "address", "Accepted; the implementation found is answered"),
    CHAIN,
  ],
  checkproxyverification: [param.req("guid", "string", "The GUID verifyproxycontract answered"), CHAIN],
  verify: [
    param.req("addressHash", "address", "The deployed contract"),
    param.req("name", "string", "Contract name"),
    param.req("compilerVersion", "string", "Compiler version, e.g. v0.8.26+commit.8a97fa7a"),
    { ...param.req("optimization", "boolean", "Whether the optimizer was on"), enum: ["true", "false"] },
    param.req("contractSourceCode", "string", "The flattened source"),
    param.opt("optimizationRuns", "integer", "Optimizer runs"),
    param.opt("evmVersion", "string", "EVM version (default: the compiler's)"),
    param.opt("constructorArguments", "hex", "ABI-encoded constructor arguments"),
    param.opt("constructorArguements", "hex", "Alias of constructorArguments"),
    ...libraries("library1Name", "library1Address"),
    CHAIN,
  ],
  verify_via_sourcify: [
    param.req("addressHash", "address", "The deployed contract"),
    {
      ...param.req("files", "file", "Multipart files[i]: the metadata JSON and the sources it names"),
    },
    ...CONSTRUCTOR_ARGS,
    CHAIN,
  ],
  verify_vyper_contract: [
    param.req("addressHash", "address", "The deployed contract"),
    param.req("name", "string", "Contract name"),
    param.req("compilerVersion", "string", "Vyper version, e.g. v0.3.10+commit.91361694"),
    param.req("contractSourceCode", "string", "The source"),
    param.opt("constructorArguments", "hex", "ABI-encoded constructor arguments"),
    param.opt("constructorArguements", "hex", "Alias of constructorArguments"),
    CHAIN,
  ],
};
