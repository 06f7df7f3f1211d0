/**
 * A busy chain served from memory (bench:index --busy): blocks of ~150 transactions (ETH transfers, ERC-20, ERC-721
 * and ERC-1155 transfers, calls that forward value internally, creations by transactions and inside them), with
 * block receipts, callTracer traces and prestateTracer diffs consistent with the balances, so the node is never the
 * bench's limit. Run as its own process (`tsx bench/busy-chain.ts --transactions N`): it prints its URL on stdout.
 *
 * Generation is deterministic per block (a PRNG seeded by the block number); only balances depend on history, so
 * start-up replays the chain once and keeps, per block, the balances its transactions start from (amounts are whole
 * gwei, exact in a float64). The sender of the chain's g-th transaction is account g mod ACCOUNTS, so its nonce is
 * g div ACCOUNTS without any history.
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";

const ACCOUNTS = 20_000;
const PER_BLOCK = 150;
/** Transactions in each block of a quiet history (`--quiet N`). */
const QUIET_TX = 1;
const GWEI = 1_000_000_000n;
const START_BALANCE = 1_000_000_000_000; // 1,000 ETH in gwei
const GAS_PRICE = 2; // gwei: 1 burnt (base fee), 1 to the fee recipient
const T0 = 1_700_000_000;

const hex = (n: number | bigint) => `0x${n.toString(16)}`;
const pad = (prefix: string, n: number, width: number) => `0x${prefix}${n.toString(16).padStart(width, "0")}`;
const account = (i: number) => pad("ee", i, 38);
const ERC20 = pad("c0", 1, 38);
const ERC721 = pad("c0", 2, 38);
const ERC1155 = pad("c0", 3, 38);
const FORWARDER = pad("c0", 4, 38);
const FACTORY = pad("c0", 5, 38);
const MINER = pad("fe", 1, 38);
const ZERO = pad("", 0, 40);
const blockHash = (b: number) => pad("b1", b, 62);
const txHash = (b: number, j: number) => pad("a1", b * 1000 + j, 62);
const created = (b: number, j: number) => pad("cc", b * 1000 + j, 38);
const word = (s: string) => `0x${s.slice(2).padStart(64, "0")}`;
const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const TRANSFER_SINGLE = "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62";
const CODE = `0x${"6080604052".repeat(20)}`;

type Kind = "eth" | "erc20" | "erc721" | "erc1155" | "forward" | "create" | "factory";
type Tx = {
  j: number;
  kind: Kind;
  from: string;
  to: string | null;
  value: number;
  gas: number;
  nonce: number;
};

/**
 * Deterministic per block: the block's transactions (PRNG seeded by the number). Blocks 1..`quiet` (a long quiet
 * history, bench:head-first) hold QUIET_TX each, the blocks above PER_BLOCK.
 */
function transactions(b: number, quiet: number): Tx[] {
  if (b === 0) return [];
  const count = b <= quiet ? QUIET_TX : PER_BLOCK;
  // The chain's transactions before this block: the sender and nonce follow from it.
  const before = b <= quiet ? (b - 1) * QUIET_TX : quiet * QUIET_TX + (b - quiet - 1) * PER_BLOCK;
  let s = (b * 2654435761) >>> 0;
  const rnd = () => {
    s = (Math.imul(s ^ (s >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    s = (s ^ (s >>> 13)) >>> 0;
    return s;
  };
  const out: Tx[] = [];
  for (let j = 0; j < count; j++) {
    const g = before + j;
    const from = account(g % ACCOUNTS);
    const nonce = Math.floor(g / ACCOUNTS);
    const r = rnd() % 100;
    const to = account(rnd() % ACCOUNTS);
    const value = 1 + (rnd() % 100_000);
    const kind: Kind =
      r < 30
        ? "eth"
        : r < 55
          ? "erc20"
          : r < 65
            ? "erc721"
            : r < 75
              ? "erc1155"
              : r < 90
                ? "forward"
                : r < 95
                  ? "create"
                  : "factory";
    const base = { j, kind, from, nonce };
    if (kind === "eth") out.push({ ...base, to, value, gas: 21_000 });
    else if (kind === "forward") out.push({ ...base, to, value, gas: 40_000 });
    else if (kind === "create") out.push({ ...base, to: null, value: 0, gas: 120_000 });
    else if (kind === "factory") out.push({ ...base, to, value: 0, gas: 140_000 });
    // A token transfer's amount (its logs'); the transaction itself carries no ether.
    else out.push({ ...base, to, value, gas: 52_000 });
  }
  return out;
}

/** The accounts whose balance a transaction moves, and by how much (gwei; the fee recipient apart). */
function moves(t: Tx): Array<[string, number]> {
  const fee = t.gas * GAS_PRICE;
  if (t.kind === "eth" || t.kind === "forward")
    return t.from === t.to
      ? [[t.from, -fee]]
      : [
          [t.from, -t.value - fee],
          [t.to!, t.value],
        ];
  return [[t.from, -fee]];
}

class Chain {
  /** Per block: the balances (gwei) its touched accounts start it with, in order of first touch. */
  private readonly starts: Float64Array[] = [];
  /** The fee recipient's balance at the end of each block (gwei). */
  private readonly miner: number[] = [];
  /** Every block's answers once built (bytes, outside the JS heap): the bench asks each block three times. */
  private readonly built: Array<Built | undefined> = [];

  constructor(
    readonly head: number,
    private readonly quiet: number,
  ) {
    const balances = new Float64Array(ACCOUNTS).fill(START_BALANCE);
    const index = (a: string) => Number.parseInt(a.slice(4), 16);
    let miner = 0;
    for (let b = 0; b <= head; b++) {
      const txs = transactions(b, quiet);
      const order = touchOrder(txs);
      this.starts.push(Float64Array.from(order, (a) => balances[index(a)]!));
      for (const t of txs) {
        for (const [a, d] of moves(t)) balances[index(a)]! += d;
        miner += t.gas * (GAS_PRICE - 1);
      }
      this.miner.push(miner);
    }
  }

  minerBalance(b: number): number {
    return this.miner[b] ?? 0;
  }

  block(b: number): Built {
    let built = this.built[b];
    if (!built) {
      built = build(b, transactions(b, this.quiet), this.starts[b]!, b === 0 ? 0 : this.miner[b - 1]!);
      this.built[b] = built;
    }
    return built;
  }

  /** Builds every block's answers now, so that no timed run pays for them (and every run is served alike). */
  buildAll(): void {
    for (let b = 0; b <= this.head; b++) this.block(b);
  }
}

function touchOrder(txs: readonly Tx[]): string[] {
  const seen = new Set<string>();
  for (const t of txs) for (const [a] of moves(t)) seen.add(a);
  return [...seen];
}

/** `prestate`: the diffs asked for balances and nonces only; `prestateFull`: with storage and code, as a node gives. */
/**
 * The storage slots a transaction writes, before and after (keys and values stand in for a real contract's: a
 * mapping slot per account moved, 32 bytes each); null for a plain transfer or a creation.
 */
function storageWrites(
  b: number,
  t: Tx,
  token: string | null,
): { account: string; values: [Record<string, string>, Record<string, string>] } | null {
  const slot = (n: number) => pad("5107", n, 60);
  const value = (n: number) => pad("", n, 64);
  const g = b * 1000 + t.j;
  if (token) {
    const keys = token === ERC721 ? [slot(g)] : [slot(2 * g), slot(2 * g + 1)];
    return {
      account: token,
      values: [
        Object.fromEntries(keys.map((k, i) => [k, value(g + i + 1)])),
        Object.fromEntries(keys.map((k, i) => [k, value(g + i + 2)])),
      ],
    };
  }
  if (t.kind === "forward" || t.kind === "factory")
    return {
      account: t.kind === "forward" ? FORWARDER : FACTORY,
      values: [{ [slot(0)]: value(g) }, { [slot(0)]: value(g + 1) }],
    };
  return null;
}

/** A block's answers, as the JSON bytes of each `result`. */
type Built = {
  full: Buffer;
  header: Buffer;
  receipts: Buffer;
  calls: Buffer;
  prestate: Buffer;
  prestateFull: Buffer;
};

const wei = (gwei: number) => hex(BigInt(gwei) * GWEI);

function build(b: number, txs: readonly Tx[], starts: Float64Array, minerStart: number): Built {
  const balance = new Map<string, number>();
  for (const [i, a] of touchOrder(txs).entries()) balance.set(a, starts[i]!);
  const hash = blockHash(b);
  const header = {
    number: hex(b),
    hash,
    parentHash: b === 0 ? pad("", 0, 64) : blockHash(b - 1),
    timestamp: hex(T0 + b * 12),
    miner: MINER,
    gasUsed: hex(txs.reduce((s, t) => s + t.gas, 0)),
    gasLimit: hex(30_000_000),
    baseFeePerGas: wei(1),
    size: hex(1000 + txs.length * 200),
    nonce: "0x0000000000000000",
    difficulty: "0x0",
    totalDifficulty: "0x0",
    extraData: "0x",
    stateRoot: pad("5a", b, 62),
    receiptsRoot: pad("5b", b, 62),
    transactionsRoot: pad("5c", b, 62),
    sha3Uncles: pad("5d", 0, 62),
    logsBloom: `0x${"0".repeat(512)}`,
    mixHash: pad("5e", b, 62),
    uncles: [],
    withdrawals: [],
    withdrawalsRoot: pad("5f", b, 62),
  };
  const full: unknown[] = [];
  const receipts: unknown[] = [];
  const calls: unknown[] = [];
  const prestate: unknown[] = [];
  const prestateFull: unknown[] = [];
  let cumulative = 0;
  let logIndex = 0;
  let miner = minerStart;
  for (const t of txs) {
    const h = txHash(b, t.j);
    const contract = t.kind === "create" || t.kind === "factory" ? created(b, t.j) : null;
    const callee =
      t.kind === "erc20" ? ERC20 : t.kind === "erc721" ? ERC721 : t.kind === "erc1155" ? ERC1155 : null;
    const to =
      t.kind === "create"
        ? null
        : t.kind === "forward"
          ? FORWARDER
          : t.kind === "factory"
            ? FACTORY
            : (callee ?? t.to);
    const input =
      t.kind === "create"
        ? CODE
        : t.kind === "eth"
          ? "0x"
          : `0xa9059cbb${word(t.to!).slice(2)}${word(hex(t.value)).slice(2)}`;
    full.push({
      hash: h,
      blockHash: hash,
      blockNumber: hex(b),
      transactionIndex: hex(t.j),
      from: t.from,
      to,
      value: wei(t.value * (t.kind === "eth" || t.kind === "forward" ? 1 : 0)),
      nonce: hex(t.nonce),
      gas: hex(t.gas + 10_000),
      gasPrice: wei(GAS_PRICE),
      maxFeePerGas: wei(GAS_PRICE * 2),
      maxPriorityFeePerGas: wei(GAS_PRICE - 1),
      type: "0x2",
      input,
      chainId: "0x5e1",
      accessList: [],
      v: "0x0",
      r: pad("", t.j + 1, 64),
      s: pad("", t.j + 2, 64),
      yParity: "0x0",
    });
    cumulative += t.gas;
    const logs: unknown[] = [];
    const log = (address: string, topics: string[], data: string) =>
      logs.push({
        address,
        topics,
        data,
        blockNumber: hex(b),
        blockHash: hash,
        transactionHash: h,
        transactionIndex: hex(t.j),
        logIndex: hex(logIndex++),
        removed: false,
      });
    if (t.kind === "erc20") log(ERC20, [TRANSFER, word(t.from), word(t.to!)], word(hex(t.value)));
    if (t.kind === "erc721")
      log(ERC721, [TRANSFER, word(ZERO), word(t.to!), word(hex(b * 1000 + t.j))], "0x");
    if (t.kind === "erc1155")
      log(
        ERC1155,
        [TRANSFER_SINGLE, word(t.from), word(ZERO), word(t.to!)],
        `${word(hex(t.j % 20))}${word(hex(t.value)).slice(2)}`,
      );
    receipts.push({
      transactionHash: h,
      transactionIndex: hex(t.j),
      blockHash: hash,
      blockNumber: hex(b),
      from: t.from,
      to,
      cumulativeGasUsed: hex(cumulative),
      gasUsed: hex(t.gas),
      effectiveGasPrice: wei(GAS_PRICE),
      contractAddress: t.kind === "create" ? contract : null,
      logs,
      logsBloom: `0x${"0".repeat(512)}`,
      status: "0x1",
      type: "0x2",
    });
    const frameValue = wei(t.kind === "eth" || t.kind === "forward" ? t.value : 0);
    const root: Record<string, unknown> = {
      type: t.kind === "create" ? "CREATE" : "CALL",
      from: t.from,
      to: t.kind === "create" ? contract : to,
      value: frameValue,
      gas: hex(t.gas + 10_000),
      gasUsed: hex(t.gas),
      input,
      output: t.kind === "create" ? CODE : "0x",
    };
    if (t.kind === "forward")
      root.calls = [
        {
          type: "CALL",
          from: FORWARDER,
          to: t.to,
          value: frameValue,
          gas: "0x2300",
          gasUsed: "0x0",
          input: "0x",
        },
      ];
    if (t.kind === "factory")
      root.calls = [
        {
          type: "CREATE",
          from: FACTORY,
          to: contract,
          value: "0x0",
          gas: hex(100_000),
          gasUsed: hex(80_000),
          input: CODE,
          output: CODE,
        },
      ];
    calls.push({ txHash: h, result: root });
    // The prestate diff: the accounts the transaction moves, the fee recipient, and a created contract's code.
    const pre: Record<string, unknown> = {};
    const post: Record<string, unknown> = {};
    for (const [a, d] of moves(t)) {
      const before = balance.get(a)!;
      pre[a] = { balance: wei(before), ...(a === t.from ? { nonce: t.nonce } : {}) };
      post[a] = { balance: wei(before + d), ...(a === t.from ? { nonce: t.nonce + 1 } : {}) };
      balance.set(a, before + d);
    }
    pre[MINER] = { balance: wei(miner) };
    miner += t.gas * (GAS_PRICE - 1);
    post[MINER] = { balance: wei(miner) };
    if (contract) post[contract] = { nonce: 1 };
    prestate.push({ txHash: h, result: { pre, post } });
    // What a node sends unless told not to: the storage slots the transaction wrote (a token's balance or owner
    // slots, a forwarder's or factory's bookkeeping slot) and the created contract's code.
    const slots = storageWrites(b, t, callee);
    // The prestate side names the contract's whole account as it was (its code too), the post side what changed.
    const withStorage = (side: Record<string, unknown>, at: 0 | 1) => {
      const out: Record<string, unknown> = { ...side };
      if (slots)
        out[slots.account] = {
          ...(at === 0 ? { balance: "0x0", nonce: 1, code: CODE } : {}),
          ...(out[slots.account] as object),
          storage: slots.values[at],
        };
      return out;
    };
    const postFull = withStorage(post, 1);
    if (contract) postFull[contract] = { code: CODE, nonce: 1 };
    prestateFull.push({ txHash: h, result: { pre: withStorage(pre, 0), post: postFull } });
  }
  const json = (v: unknown) => Buffer.from(JSON.stringify(v));
  return {
    full: json({ ...header, transactions: full }),
    header: json({ ...header, transactions: full.map((t) => (t as { hash: string }).hash) }),
    receipts: json(receipts),
    calls: json(calls),
    prestate: json(prestate),
    prestateFull: json(prestateFull),
  };
}

type Request = { id: unknown; method: string; params?: unknown[] };

/** The raw JSON of one request's result, or an error object. */
function answer(
  chain: Chain,
  r: Request,
): { result: string | Buffer } | { error: { code: number; message: string } } {
  const p = r.params ?? [];
  const number = (q: unknown) =>
    q === "latest" || q === "pending" || q === "safe" || q === "finalized" ? chain.head : Number(q);
  const known = (b: number) => Number.isInteger(b) && b >= 0 && b <= chain.head;
  const byHash = (h: unknown) =>
    typeof h === "string" && h.startsWith("0xb1") ? Number.parseInt(h.slice(4), 16) : -1;
  switch (r.method) {
    case "eth_chainId":
      return { result: '"0x5e1"' };
    case "net_version":
      return { result: '"1505"' };
    case "web3_clientVersion":
      return { result: '"lookout-bench-busy-chain/1"' };
    case "eth_blockNumber":
      return { result: `"${hex(chain.head)}"` };
    case "eth_syncing":
      return { result: "false" };
    case "eth_accounts":
      return { result: "[]" };
    case "eth_getBlockByNumber":
    case "eth_getBlockByHash": {
      const b = r.method === "eth_getBlockByHash" ? byHash(p[0]) : number(p[0]);
      if (!known(b)) return { result: "null" };
      return { result: p[1] ? chain.block(b).full : chain.block(b).header };
    }
    case "eth_getBlockReceipts": {
      const b = number(p[0]);
      return { result: known(b) ? chain.block(b).receipts : "null" };
    }
    case "debug_traceBlockByNumber": {
      const b = number(p[0]);
      if (!known(b)) return { error: { code: -32000, message: "block not found" } };
      const tracer = (p[1] as { tracer?: string } | undefined)?.tracer;
      if (tracer === "callTracer") return { result: chain.block(b).calls };
      if (tracer === "prestateTracer") {
        const config = (p[1] as { tracerConfig?: { disableStorage?: boolean; disableCode?: boolean } })
          .tracerConfig;
        const lean = config?.disableStorage === true && config.disableCode === true;
        return { result: lean ? chain.block(b).prestate : chain.block(b).prestateFull };
      }
      return { error: { code: -32602, message: "unsupported tracer" } };
    }
    case "eth_getBalance": {
      const tag = p[1] as { blockHash?: string } | string;
      const b = typeof tag === "object" && tag ? byHash(tag.blockHash) : number(tag);
      if (!known(b)) return { error: { code: -32000, message: "header not found" } };
      // Only the fee recipient is ever read (no withdrawals, no genesis accounts).
      return { result: `"${wei(String(p[0]).toLowerCase() === MINER ? chain.minerBalance(b) : 0)}"` };
    }
    case "eth_getCode": {
      const a = String(p[0]).toLowerCase();
      return { result: a.startsWith("0xc") ? `"${CODE}"` : '"0x"' };
    }
    case "eth_getStorageAt":
      return { result: `"${pad("", 0, 64)}"` };
    case "eth_call":
      return { result: '"0x"' };
    case "eth_getTransactionCount":
      return { result: '"0x0"' };
    default:
      return { error: { code: -32601, message: `the method ${r.method} does not exist/is not available` } };
  }
}

/** One request's answer, as the parts to send in order (a built block's bytes go out as they are). */
function reply(chain: Chain, r: Request, out: Array<string | Buffer>): void {
  const a = answer(chain, r);
  const id = JSON.stringify(r.id ?? null);
  if ("result" in a) out.push(`{"jsonrpc":"2.0","id":${id},"result":`, a.result, "}");
  else out.push(`{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify(a.error)}}`);
}

const bytesOf = (parts: ReadonlyArray<string | Buffer>) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p)));

/**
 * Starts the server; resolves with its URL. `quiet` blocks of QUIET_TX transactions come first (a long history),
 * then busy blocks of PER_BLOCK until `transactionsWanted` of them.
 */
export async function serveBusyChain(
  transactionsWanted: number,
  port = 0,
  quiet = 0,
  prebuild = false,
): Promise<{ url: string; head: number; transactions: number }> {
  const busy = Math.max(1, Math.ceil(transactionsWanted / PER_BLOCK));
  const head = quiet + busy;
  const chain = new Chain(head, quiet);
  if (prebuild) chain.buildAll();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: Buffer;
      try {
        const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Request | Request[];
        const parts: Array<string | Buffer> = [];
        if (Array.isArray(parsed)) {
          parts.push("[");
          parsed.forEach((r, i) => {
            if (i > 0) parts.push(",");
            reply(chain, r, parts);
          });
          parts.push("]");
        } else reply(chain, parsed, parts);
        body = bytesOf(parts);
      } catch {
        body = Buffer.from('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}');
      }
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  return { url: `http://127.0.0.1:${address.port}`, head, transactions: quiet * QUIET_TX + busy * PER_BLOCK };
}

if (process.argv[1]?.endsWith("busy-chain.ts")) {
  const { values } = parseArgs({
    options: {
      transactions: { type: "string", default: "100000" },
      quiet: { type: "string", default: "0" },
      // Every block's answers built before the server listens (the benches' timed runs then only send bytes).
      prebuild: { type: "boolean", default: false },
    },
  });
  serveBusyChain(Number(values.transactions), 0, Number(values.quiet), values.prebuild).then((served) => {
    process.stdout.write(`${JSON.stringify(served)}\n`);
  });
}
