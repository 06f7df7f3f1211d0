import type { CompilerOutput, StandardJsonError, StandardJsonInput } from "../compilers/index.js";
import {
  type AbiItemLike,
  type CborAuxdataPositions,
  type CompiledContract,
  cborAuxdataPositionsFromDiff,
  type ImmutableReferences,
  type Language,
  type LinkReferences,
} from "../matching/index.js";

/** One contract of a compiler output, ready for the matching engine, with where it came from. */
export type CandidateContract = {
  fileName: string;
  contractName: string;
  compiled: CompiledContract;
  /** The input this contract was compiled from (for the store: settings and sources). */
  input: StandardJsonInput;
};

type CodeOutput = {
  object?: string;
  linkReferences?: LinkReferences;
  immutableReferences?: ImmutableReferences;
};
type ContractOutput = {
  abi?: AbiItemLike[];
  evm?: { bytecode?: CodeOutput; deployedBytecode?: CodeOutput };
};

const hex = (s: string | undefined) => (s ? (s.startsWith("0x") ? s : `0x${s}`) : "0x");

/** Error messages of a compiler output (severity "error"), as the compiler formatted them. */
export function compileErrors(output: CompilerOutput): StandardJsonError[] {
  return (output.errors ?? []).filter((e) => e.severity === "error");
}

/**
 * Every contract of an output, sorted by `file:Contract` so that ties in match quality resolve the same way
 * every time. Contracts without code (interfaces, abstract contracts) are kept; the engine reports them empty.
 */
export function contractsFromOutput(
  output: CompilerOutput,
  input: StandardJsonInput,
  language: Language,
  compilerVersion: string,
): CandidateContract[] {
  const out: CandidateContract[] = [];
  for (const [fileName, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [contractName, raw] of Object.entries(contracts ?? {})) {
      const c = raw as ContractOutput;
      const creation = c.evm?.bytecode;
      const runtime = c.evm?.deployedBytecode;
      out.push({
        fileName,
        contractName,
        input,
        compiled: {
          language,
          compilerVersion,
          creationCode: hex(creation?.object),
          runtimeCode: hex(runtime?.object),
          linkReferences: creation?.linkReferences ?? {},
          deployedLinkReferences: runtime?.linkReferences ?? {},
          immutableReferences: runtime?.immutableReferences ?? {},
          abi: c.abi ?? [],
        },
      });
    }
  }
  return out.sort((a, b) => (`${a.fileName}:${a.contractName}` < `${b.fileName}:${b.contractName}` ? -1 : 1));
}

// Markers of solc's CBOR metadata: the "ipfs"/"bzzr0"/"bzzr1" keys with their byte-string headers, and "solc".
const AUXDATA_MARKERS = ["64697066735822", "65627a7a723058", "65627a7a723158", "64736f6c6343"];

/**
 * Whether code may hold more than one auxdata (a factory embedding its children's code). Only decides whether a
 * second compilation is worth it; positions themselves never come from scanning.
 */
export function mayHoldSeveralAuxdata(code: string): boolean {
  const body = code.toLowerCase();
  return AUXDATA_MARKERS.some((m) => {
    const first = body.indexOf(m);
    return first >= 0 && body.indexOf(m, first + 1) >= 0;
  });
}

/**
 * Adds auxdata positions proven by a second compilation whose sources differ only outside the code. Where the two
 * differ in anything but auxdata (or not at all, e.g. without a metadata hash) the positions stay unset and the
 * engine falls back to the trailing auxdata.
 */
export function withDiffedAuxdata(
  original: CandidateContract[],
  edited: CandidateContract[],
): CandidateContract[] {
  const byName = new Map(edited.map((c) => [`${c.fileName}:${c.contractName}`, c]));
  return original.map((c) => {
    const e = byName.get(`${c.fileName}:${c.contractName}`);
    if (!e) return c;
    const lang = c.compiled.language;
    const creation = positions(c.compiled.creationCode, e.compiled.creationCode, lang);
    const runtime = positions(c.compiled.runtimeCode, e.compiled.runtimeCode, lang);
    return {
      ...c,
      compiled: {
        ...c.compiled,
        ...(creation ? { creationCborAuxdata: creation } : {}),
        ...(runtime ? { runtimeCborAuxdata: runtime } : {}),
      },
    };
  });
}

function positions(a: string, b: string, language: Language): CborAuxdataPositions | null {
  const r = cborAuxdataPositionsFromDiff(a, b, language);
  return r.ok && Object.keys(r.positions).length > 0 ? r.positions : null;
}
