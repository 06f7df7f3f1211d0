import { InvalidInputError } from "../../errors/base.js";
import type { Params } from "../../http/etherscan-params.js";
import { ADDRESS_RE } from "../../verifier/api.js";
import type { CompilerLanguage, StandardJsonInput } from "../../verifier/compilers/index.js";
import { librariesSetting, parseStandardJsonInput, singleFileInput } from "../../verifier/requests/index.js";
import type { SingleContractRequest } from "../../verifier/submit.js";

export const CODE_FORMATS = ["solidity-standard-json-input", "solidity-single-file", "vyper-json"] as const;
export type CodeFormat = (typeof CODE_FORMATS)[number];

export type Submission = {
  /** Lower-case 0x address. */
  address: string;
  codeFormat: CodeFormat;
  request: SingleContractRequest;
};

const required = (p: Params, name: string, raw = false): string => {
  const v = raw ? p.raw(name) : p.get(name);
  if (v === undefined || v.trim() === "")
    throw new InvalidInputError(`Missing ${name} field`, { field: name });
  return v;
};

/** The contract address of a request (`contractaddress` for verifysourcecode, `address` elsewhere). */
export function addressParam(p: Params, name: string): string {
  return parseAddress(required(p, name), name);
}

/** A 0x-prefixed 20-byte hex address, lower-cased; InvalidInputError naming the field otherwise. */
export function parseAddress(v: string, name: string): string {
  if (!ADDRESS_RE.test(v)) {
    throw new InvalidInputError(`Invalid ${name} "${v}": expected a 0x-prefixed 20-byte hex address`, {
      field: name,
    });
  }
  return v.toLowerCase();
}

/** Both spellings Etherscan clients send (`constructorArguements` is Etherscan's historic typo); hex, `0x` optional. */
export function constructorArgumentsParam(p: Params): string | null {
  const v = p.get("constructorArguements") ?? p.get("constructorArguments");
  if (v === undefined) return null;
  const hex = v.replace(/^0x/i, "");
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) {
    throw new InvalidInputError("Invalid constructorArguments: expected hex bytes");
  }
  return hex.toLowerCase();
}

/** `v0.8.26+commit.8a97fa7a` stays as is (the registry accepts `v` and short commits); `vyper:0.4.0` → `0.4.0`. */
function compilerVersion(p: Params, language: CompilerLanguage): string {
  const v = required(p, "compilerversion");
  const isVyper = /^vyper:/i.test(v);
  if (isVyper !== (language === "Vyper")) {
    throw new InvalidInputError(
      `compilerversion "${v}" does not fit codeformat ${language === "Vyper" ? "vyper-json" : "solidity-*"}` +
        ` (Vyper versions are written vyper:x.y.z)`,
    );
  }
  return isVyper ? v.replace(/^vyper:/i, "") : v;
}

function standardJson(p: Params): StandardJsonInput {
  const parsed = parseStandardJsonInput(required(p, "sourceCode", true));
  if (!parsed.ok) throw new InvalidInputError(`Invalid sourceCode: ${parsed.message}`);
  return parsed.input;
}

/** Library links given as `libraryname{i}`/`libraryaddress{i}`, checked; keys `Name` or `path:Name`. */
function libraryParams(p: Params): Record<string, string> {
  const libs = p.libraries();
  for (const [name, address] of Object.entries(libs)) {
    if (!ADDRESS_RE.test(address) && !/^[0-9a-fA-F]{40}$/.test(address)) {
      throw new InvalidInputError(`Invalid address "${address}" for library ${name}`);
    }
    libs[name] = address.startsWith("0x") ? address : `0x${address}`;
  }
  return libs;
}

/** One flattened file (`solidity-single-file`) with Etherscan's separate settings fields. */
function singleFile(p: Params, contractName: string): StandardJsonInput {
  const at = contractName.lastIndexOf(":");
  const fileName = at >= 0 ? contractName.slice(0, at) : `${contractName}.sol`;
  const optimized = p.get("optimizationUsed") === "1" || p.get("optimizationUsed") === "true";
  const runs = Number(p.get("runs") ?? 200);
  if (!Number.isInteger(runs) || runs < 0) throw new InvalidInputError(`Invalid runs "${p.get("runs")}"`);
  const evm = p.get("evmversion") ?? p.get("evmVersion");
  const viaIR = p.get("viaIR");
  // Bare library names link in the one source file; `path:Name` keys say where themselves.
  const libraries = libraryParams(p);
  return singleFileInput({
    fileName,
    content: required(p, "sourceCode", true),
    optimizer: { enabled: optimized, runs },
    evmVersion: evm && evm.toLowerCase() !== "default" ? evm : undefined,
    viaIR: viaIR === "true" || viaIR === "1",
    libraries,
  });
}

/**
 * The verify service request for an Etherscan `verifysourcecode` call. Pure; throws InvalidInputError with a
 * message naming the field (rendered as a status "0" envelope).
 */
export function submissionFromParams(p: Params, chainId: string): Submission {
  const address = addressParam(p, "contractaddress");
  const codeFormat = (p.get("codeformat") ?? "solidity-single-file") as CodeFormat;
  if (!CODE_FORMATS.includes(codeFormat)) {
    throw new InvalidInputError(
      `Invalid codeformat "${codeFormat}" (expected one of ${CODE_FORMATS.join(", ")})`,
    );
  }
  constructorArgumentsParam(p);
  const contract = { chainId, address };
  if (codeFormat === "solidity-single-file") {
    const name = required(p, "contractname");
    return {
      address,
      codeFormat,
      request: {
        language: "Solidity",
        compiler: compilerVersion(p, "Solidity"),
        contracts: [contract],
        input: singleFile(p, name),
      },
    };
  }
  required(p, "contractname");
  const language: CompilerLanguage = codeFormat === "vyper-json" ? "Vyper" : "Solidity";
  const compiler = compilerVersion(p, language);
  const input = standardJson(p);
  if (codeFormat === "vyper-json") input.language ??= "Vyper";
  const libs = libraryParams(p);
  const settings = (input.settings ?? {}) as Record<string, unknown>;
  if (language === "Solidity" && Object.keys(libs).length && settings.libraries === undefined) {
    input.settings = { ...settings, libraries: librariesSetting(libs) };
  }
  return { address, codeFormat, request: { language, compiler, contracts: [contract], input } };
}
