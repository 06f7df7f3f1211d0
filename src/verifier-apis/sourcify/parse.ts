import type { CompilerLanguage, StandardJsonInput } from "../../verifier/compilers/index.js";
import type { SingleContractRequest } from "../../verifier/submit.js";
import { SourcifyError } from "./errors.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const invalid = (message: string) => new SourcifyError("invalid_parameter", message);

/**
 * The verify service request for `POST /v2/verify/{chainId}/{address}`, checked as Sourcify's middleware does:
 * a standard JSON input with `language` and `sources` (each with `content`), a `path:Name` contract identifier,
 * a compiler version (`v` prefix, and a commit-less Vyper version, accepted). Pure; throws invalid_parameter
 * (the request limits are `submitVerification`'s).
 */
export function submissionFromBody(body: unknown, chainId: string, address: string): SingleContractRequest {
  if (!isObject(body)) throw invalid("The request body must be a JSON object");
  const input = body.stdJsonInput;
  if (!isObject(input)) throw invalid("stdJsonInput is required and must be a standard JSON input object");
  if (input.language !== "Solidity" && input.language !== "Vyper") {
    throw invalid(
      `stdJsonInput.language must be "Solidity" or "Vyper" (got ${JSON.stringify(input.language)})`,
    );
  }
  if (!isObject(input.sources) || Object.keys(input.sources).length === 0) {
    throw invalid("stdJsonInput.sources is required and must name at least one source");
  }
  for (const [path, s] of Object.entries(input.sources)) {
    if (!isObject(s) || typeof s.content !== "string")
      throw invalid(`stdJsonInput.sources["${path}"].content is required`);
  }
  if (input.settings !== undefined && !isObject(input.settings))
    throw invalid("stdJsonInput.settings must be an object");
  const version = body.compilerVersion;
  if (typeof version !== "string" || version.trim() === "") throw invalid("compilerVersion is required");
  const id = body.contractIdentifier;
  if (typeof id !== "string" || !id.includes(":") || id.endsWith(":")) {
    throw invalid('contractIdentifier is required, as "path/File.sol:ContractName"');
  }
  const tx = body.creationTransactionHash;
  if (tx !== undefined && tx !== null && (typeof tx !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(tx))) {
    throw invalid("creationTransactionHash must be a 0x-prefixed 32-byte hex hash");
  }
  const language: CompilerLanguage = input.language;
  return {
    language,
    compiler: version.trim(),
    contracts: [{ chainId, address, ...(typeof tx === "string" ? { creationTransactionHash: tx } : {}) }],
    input: input as StandardJsonInput,
  };
}
