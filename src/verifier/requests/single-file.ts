import type { StandardJsonInput } from "../compilers/index.js";
import { librariesSetting } from "./solidity.js";

export type SingleFile = {
  fileName: string;
  content: string;
  /** "Solidity" unless the file is Yul. */
  language?: "Solidity" | "Yul";
  optimizer: { enabled: boolean; runs: number };
  /** Set only when the caller names one (its "default" left out). */
  evmVersion?: string | undefined;
  viaIR?: boolean;
  /** `Name` (linked in this file) or `path:Name` → address. */
  libraries?: Record<string, string>;
};

/**
 * One flattened source file with separate settings fields (Etherscan's `solidity-single-file`, the verify form's
 * flattened code) as a standard JSON input. Settings keep this member order: it is part of what is stored.
 */
export function singleFileInput(f: SingleFile): StandardJsonInput {
  const settings: Record<string, unknown> = { optimizer: f.optimizer };
  if (f.evmVersion) settings.evmVersion = f.evmVersion;
  if (f.viaIR) settings.viaIR = true;
  const libs = Object.entries(f.libraries ?? {});
  if (libs.length)
    settings.libraries = librariesSetting(
      Object.fromEntries(libs.map(([k, v]) => [k.includes(":") ? k : `${f.fileName}:${k}`, v])),
    );
  return {
    language: f.language ?? "Solidity",
    sources: { [f.fileName]: { content: f.content } },
    settings,
  };
}
