import type { Address, Hex } from "viem";

/**
 * A getLogs filter as Blockscout's Etherscan.Logs reads it: a block range, an address and/or topics, and for two
 * topics given together the operator (`and`|`or`) that joins them; each given pair becomes one condition, and
 * the conditions are and-ed. With one topic, it alone must match.
 */
export type LogFilter = {
  fromBlock: number;
  toBlock: number;
  address: Address | null;
  /** topic0..topic3, each a value or a set of values (eth_getLogs), null when not filtered. */
  topics: Array<Hex[] | null>;
  /** Operators by pair `"01"`, `"02"`, … (`and` when absent, as eth_getLogs). */
  operators: Partial<Record<string, "and" | "or">>;
};

export const TOPIC_PAIRS = ["01", "02", "03", "12", "13", "23"] as const;

/** SQL conditions on alias `l` for the filter's topics, with their parameters appended to `params`. */
export function topicConditions(f: LogFilter, params: unknown[], toBytea: (h: string) => Buffer): string[] {
  const cond = (i: number): string | null => {
    const values = f.topics[i];
    if (!values) return null;
    params.push(values.map(toBytea));
    return values.length === 1
      ? `l.topic${i} = ($${params.length}::bytea[])[1]`
      : `l.topic${i} = any($${params.length})`;
  };
  const given = [0, 1, 2, 3].filter((i) => f.topics[i]);
  if (given.length === 1) return [cond(given[0]!)!];
  const out: string[] = [];
  const sql = new Map<number, string>();
  for (const i of given) sql.set(i, cond(i)!);
  for (const pair of TOPIC_PAIRS) {
    const a = Number(pair[0]);
    const b = Number(pair[1]);
    if (!sql.has(a) || !sql.has(b)) continue;
    const op = f.operators[pair] === "or" ? "or" : "and";
    out.push(`(${sql.get(a)} ${op} ${sql.get(b)})`);
  }
  return out;
}
