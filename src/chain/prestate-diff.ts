/**
 * How the node is asked for prestate diffs: `lean` asks for balances and nonces only, the only fields the stages
 * read; a real block's diffs are otherwise mostly the storage slots its calls wrote and the code of every contract
 * it created (up to 24 KiB each, as hex), all sent as JSON and parsed. geth, reth, Erigon and anvil take the two
 * flags; `full` is for a node that refuses them.
 */
export type PrestateDiffMode = "lean" | "full";

export function prestateDiffTracer(mode: PrestateDiffMode) {
  return {
    tracer: "prestateTracer",
    tracerConfig:
      mode === "lean" ? { diffMode: true, disableCode: true, disableStorage: true } : { diffMode: true },
  };
}
