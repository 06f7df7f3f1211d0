import { atLeast, type CompilerVersion } from "./version.js";

/**
 * Which EVM versions each compiler version accepts in `settings.evmVersion`, from the compilers' release history.
 * Solidity: the setting exists since 0.4.21 (homestead..constantinople); petersburg 0.5.5; istanbul and berlin
 * were accepted as names from 0.5.13 (Istanbul support; berlin was listed ahead of the fork); london 0.8.7;
 * paris 0.8.18; shanghai 0.8.20; cancun 0.8.24; prague 0.8.27; osaka 0.8.29. Older versions are deprecated by
 * recent compilers but still accepted. evm-versions.test.ts checks this table against every installed solc-js.
 */
const SOLIDITY: ReadonlyArray<readonly [evm: string, since: string]> = [
  ["homestead", "0.4.21"],
  ["tangerineWhistle", "0.4.21"],
  ["spuriousDragon", "0.4.21"],
  ["byzantium", "0.4.21"],
  ["constantinople", "0.4.21"],
  ["petersburg", "0.5.5"],
  ["istanbul", "0.5.13"],
  ["berlin", "0.5.13"],
  ["london", "0.8.7"],
  ["paris", "0.8.18"],
  ["shanghai", "0.8.20"],
  ["cancun", "0.8.24"],
  ["prague", "0.8.27"],
  ["osaka", "0.8.29"],
];

/**
 * Vyper: 0.1.x knows byzantium/constantinople/petersburg; istanbul from 0.2.0; berlin 0.2.12; paris 0.3.7;
 * shanghai and cancun 0.3.8; 0.3.10 keeps only forks of the last three years (london..cancun, VIP 3365);
 * prague from 0.4.1, osaka from 0.4.3. Vyper never accepted "london" before 0.3.10.
 */
type Range = readonly [evm: string, since: string, until?: string];
const VYPER: readonly Range[] = [
  ["byzantium", "0.0.1", "0.3.10"],
  ["constantinople", "0.0.1", "0.3.10"],
  ["petersburg", "0.0.1", "0.3.10"],
  ["istanbul", "0.2.0", "0.3.10"],
  ["berlin", "0.2.12", "0.3.10"],
  ["london", "0.3.10"],
  ["paris", "0.3.7"],
  ["shanghai", "0.3.8"],
  ["cancun", "0.3.8"],
  ["prague", "0.4.1"],
  ["osaka", "0.4.3"],
];

export const ALL_SOLIDITY_EVM_VERSIONS: readonly string[] = SOLIDITY.map(([evm]) => evm);

export function solidityEvmVersions(v: CompilerVersion): string[] {
  return [...SOLIDITY.filter(([, since]) => atLeast(v, since)).map(([evm]) => evm), "default"];
}

export function vyperEvmVersions(v: CompilerVersion): string[] {
  const ok = VYPER.filter(
    ([, since, until]) => atLeast(v, since) && (until === undefined || !atLeast(v, until)),
  );
  return [...ok.map(([evm]) => evm), "default"];
}
