import { InvalidInputError } from "../../errors/base.js";
import { type CompilerVersion, parseVersion } from "../compilers/index.js";

/**
 * A Vyper version as requests and lists name it: `0.3.10`, `v0.4.1b1+commit.039d3692`, `0.4.1-rc2+commit.305813c9`,
 * `0.4.0rc6` (PEP 440 prereleases with or without a hyphen, with or without `v` and commit).
 */
export function parseVyperVersion(text: string): CompilerVersion {
  const v = parseVersion(text);
  if (!v) {
    throw new InvalidInputError(`Invalid Vyper compiler version: ${JSON.stringify(text)}`, {
      field: "compiler",
    });
  }
  return v;
}

/**
 * From 0.4.0 (prereleases included) sources may be modules and interfaces that are not contracts, so only the
 * selected files are compiled as contracts; 0.3.x compiles every source as a contract and gets `"*"`.
 * Blockscout draws the line the same way (blockscout-verifier-api.md §5.2).
 */
export function selectsPerFile(v: CompilerVersion): boolean {
  return v.major > 0 || v.minor >= 4;
}
