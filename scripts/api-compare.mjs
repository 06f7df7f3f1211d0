#!/usr/bin/env node
/**
 * api-compare: proves that two checkouts of Lookout answer the same HTTP API the same way.
 *
 *   node scripts/api-compare.mjs --old <dir> --new <dir> [--keep] [--quiet]
 *                                [--old-env KEY=VALUE]... [--new-env KEY=VALUE]... [--pg-url URL] [--max-pages N]
 *
 * Both directories are built checkouts (`npm run build`); each one's CLI is package.json `bin.lookout`.
 *
 * How (and why this way):
 * 1. One chain, one index. A fresh anvil and a fresh PostgreSQL database; the OLD checkout's `lookout start` indexes
 *    the chain while a fixed scenario runs on it (tokens of the four standards, ETH transfers of three transaction
 *    types, a block of 55 transactions, internal creations and value transfers, reverts, a failed creation, a proxy)
 *    and verifies contracts through the /api/v1, Etherscan and Sourcify APIs (full, partial and failed matches, an
 *    automatically verified copy). Each block is mined on demand and the next one sent once the indexer has written
 *    it (anvil stalls when transactions arrive while it traces a block). Indexing once and serving both checkouts
 *    from the same database makes the data identical by construction: block timestamps, hashes and job ids cannot
 *    differ between the two servers.
 * 2. Settle. Poll until the indexed height is the chain head, the token workers have fetched every property and
 *    metadata document, and no verification job is pending; then stop the indexer, so nothing writes any more.
 * 3. Serve. `lookout serve --no-jobs` of OLD and of NEW, on two ports, same database, same RPC, same settings
 *    (compiler list URLs point nowhere, so both see exactly the solc-js versions installed in node_modules).
 * 4. Compare. The URL list comes from OLD's OpenAPI document (every GET operation, path parameters filled from the
 *    scenario, documented query parameters with valid and invalid values, next_page_params followed), plus
 *    hand-written requests (invalid input, unknown routes, Etherscan /api actions, Sourcify, read-only POSTs, docs,
 *    CORS preflight). Each request goes to both servers at the same moment; status, headers and body bytes are
 *    compared. A database fingerprint taken before and after shows that no request wrote anything.
 *
 * Output: one line per request, details of each difference, and `N requests, M identical, K different`; exit code 1
 * when anything differs (2 on a setup error). The full recording (every answer of both servers, logs) goes to a
 * fresh folder under the system temp directory, printed at the start and the end.
 *
 * Only Node built-ins, plus `pg`, `solc` and `viem` resolved from the OLD checkout's node_modules.
 */
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";

const USAGE = `Usage: node scripts/api-compare.mjs --old <dir> --new <dir> [options]

Indexes a fixed scenario once (with OLD), serves the same database with OLD and NEW, and compares every answer.

Options:
  --old <dir>           built checkout whose answers are the reference (also indexes the scenario)
  --new <dir>           built checkout to compare against it (may be the same directory: a determinism check)
  --keep                keep the database and the data folders (the recording is always kept)
  --quiet               print only the requests whose answers differ (and the summary)
  --old-env KEY=VALUE   extra environment for OLD's server (repeatable)
  --new-env KEY=VALUE   extra environment for NEW's server (repeatable), e.g. PUBLIC_TAGS_FILE=/tmp/tags.json
  --pg-url <url>        PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
  --max-pages <n>       next_page_params followed per list (default 3)
  --help                this text`;

/** Response headers that change from one request to the next whatever the code does. */
const VOLATILE_HEADERS = ["date", "connection", "keep-alive"];

/**
 * The only body normalisations: members that measure time or the process, or are random by design, not behaviour.
 * Each is a regular expression on the raw text of both answers alike (everything else stays byte for byte), chosen
 * by the route (path without query string and trailing slash) and status, and is printed in the summary. A
 * normalised answer's content-length is not compared (the normalised bodies are).
 */
const NORMALISATIONS = [
  {
    what: "/health: database.latency_ms (the time of the database round trip) → 0",
    applies: (route) => route === "/health",
    apply: (text) => text.replace(/"latency_ms":\d+/g, '"latency_ms":0'),
  },
  {
    what:
      "/api/v2/stats: gas_price_updated_at and gas_prices_update_in (when this process computed its gas price " +
      "oracle, and the time left until its next refresh) → fixed values",
    applies: (route) => route === "/api/v2/stats",
    apply: (text) =>
      text
        .replace(/"gas_price_updated_at":"[^"]*"/g, '"gas_price_updated_at":"<time>"')
        .replace(/"gas_prices_update_in":\d+/g, '"gas_prices_update_in":0'),
  },
  {
    what: "/sourcify/… error answers (4xx/5xx): errorId (a random UUID per error) → fixed value",
    applies: (route, status) => route.startsWith("/sourcify") && status >= 400,
    apply: (text) => text.replace(/"errorId":"[0-9a-f-]{36}"/g, '"errorId":"<uuid>"'),
  },
  {
    what: "/metrics: only the # HELP and # TYPE lines (the metric names; the values are timings and process figures)",
    applies: (route) => route === "/metrics",
    apply: (text) =>
      text
        .split("\n")
        .filter((l) => l.startsWith("# HELP") || l.startsWith("# TYPE"))
        .join("\n"),
  },
];

/** The route a normalisation is chosen by: the path without its query string and trailing slash. */
const routeOf = (path) => path.split("?")[0].replace(/(.)\/+$/, "$1");
const normalisationsFor = (path, status) => NORMALISATIONS.filter((n) => n.applies(routeOf(path), status));

/** Sent with every compared request, so the CORS headers are part of the comparison. */
const ORIGIN = "http://api-compare.test";
const CHAIN_ID = 31337;
/** An address nothing on the chain ever touched. */
const UNKNOWN_ADDRESS = "0x000000000000000000000000000000000000dEaD";
const UNKNOWN_TX = `0x${"ab".repeat(32)}`;
const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/** Unreachable compiler list URLs: both servers then know exactly the solc-js versions installed in node_modules. */
const OFFLINE_COMPILER_LISTS = {
  SOLC_LIST_URL: "http://127.0.0.1:1/solc-list.json",
  SOLCJS_LIST_URL: "http://127.0.0.1:1/solcjs-list.json",
  VYPER_LIST_URL: "http://127.0.0.1:1/vyper-list.json",
};

// ─── small helpers ──────────────────────────────────────────────────────────────────────────────────────────────

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (line = "") => process.stdout.write(`${line}\n`);
const elapsed = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

class SetupError extends Error {}

/**
 * Polls `check` (which returns a truthy value when done) every `intervalMs`; never a fixed sleep. Other errors are
 * retried until the deadline; a SetupError (a process exited, say) ends the wait at once.
 */
async function waitUntil(what, check, { timeoutMs = 120_000, intervalMs = 250 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      if (e instanceof SetupError) throw e;
      last = e;
    }
    if (Date.now() > deadline)
      throw new SetupError(`timed out waiting for ${what}${last ? ` (last error: ${last.message})` : ""}`);
    await sleep(intervalMs);
  }
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolvePort(port));
    });
  });
}

/** `a=1&b=x,y`: values URI-encoded except commas (as the Blockscout frontend writes `type=ERC-20,ERC-721`). */
function queryString(params) {
  const parts = Object.entries(params).map(
    ([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v)).replace(/%2C/g, ",")}`,
  );
  return parts.length ? `?${parts.join("&")}` : "";
}

// ─── processes and clean-up ─────────────────────────────────────────────────────────────────────────────────────

/** Every process this script started; all are stopped on exit, error and signals. */
const processes = new Set();
const cleanupTasks = [];

/** Starts a process with its output in `logPath`. */
function startProcess(name, command, args, { env, logPath, cwd }) {
  const out = createWriteStream(logPath);
  const child = spawn(command, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const exited = new Promise((r) => child.once("exit", (code, signal) => r({ code, signal })));
  child.once("error", (e) => out.write(`\n[api-compare] could not start ${command}: ${e.message}\n`));
  const p = {
    name,
    child,
    exited,
    logPath,
    running: () => child.exitCode === null && child.signalCode === null,
    /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
    async stop(graceMs = 15_000) {
      if (p.running()) {
        child.kill("SIGTERM");
        const hard = setTimeout(() => p.running() && child.kill("SIGKILL"), graceMs);
        await exited;
        clearTimeout(hard);
      }
      processes.delete(p);
    },
  };
  processes.add(p);
  exited.then(() => processes.delete(p));
  return p;
}

const tail = (path, n = 25) => {
  try {
    return readFileSync(path, "utf8").trimEnd().split("\n").slice(-n).join("\n");
  } catch {
    return "(no output)";
  }
};

let cleaning = null;
/** Stops every process (SIGTERM, then SIGKILL), then runs the clean-up tasks (database, folders) once. */
function cleanup() {
  cleaning ??= (async () => {
    await Promise.all([...processes].map((p) => p.stop(10_000)));
    for (const task of cleanupTasks.reverse()) await task().catch((e) => log(`clean-up: ${e.message}`));
  })();
  return cleaning;
}

/** Set by SIGINT/SIGTERM: what fails afterwards (requests to stopped processes) is not worth reporting. */
let interrupted = null;
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.once(signal, () => {
    interrupted = code;
    log(`\n${signal}: stopping the processes and cleaning up…`);
    cleanup().finally(() => process.exit(code));
  });
}
// Last resort (an uncaught exception, process.exit elsewhere): nothing may outlive the script.
process.on("exit", () => {
  for (const p of processes) if (p.running()) p.child.kill("SIGKILL");
});

// ─── checkouts ──────────────────────────────────────────────────────────────────────────────────────────────────

/** A built checkout: its directory and CLI (package.json `bin.lookout`, which the new layout may move). */
function checkout(dir, label) {
  const root = resolve(dir);
  const pkgPath = join(root, "package.json");
  if (!existsSync(pkgPath)) throw new SetupError(`--${label} ${dir}: no package.json there`);
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.lookout;
  if (!bin) throw new SetupError(`--${label} ${dir}: package.json has no bin.lookout`);
  const cli = join(root, bin);
  if (!existsSync(cli))
    throw new SetupError(`--${label} ${dir}: ${bin} is missing; run \`npm run build\` there`);
  return { label, root, cli, version: pkg.version };
}

// ─── JSON-RPC and anvil ─────────────────────────────────────────────────────────────────────────────────────────

async function rpc(url, method, params = []) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    // A node that stops answering must fail the run, not hold it for fetch's five-minute default.
    signal: AbortSignal.timeout(60_000),
  }).catch((e) => {
    throw new Error(`${method}: ${e.name === "TimeoutError" ? "no answer within 60 s" : e.message}`);
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** The anvil binary of the npm platform package (as src/chain/anvil.ts finds it), else `anvil` from PATH. */
function anvilBinary(requireOld) {
  const pkg = { "linux-x64": "anvil-linux-amd64", "linux-arm64": "anvil-linux-arm64" }[
    `${process.platform}-${process.arch}`
  ];
  if (pkg) {
    try {
      const bin = join(dirname(requireOld.resolve(`@foundry-rs/${pkg}/package.json`)), "bin", "anvil");
      if (existsSync(bin)) return bin;
    } catch {
      // not installed: PATH
    }
  }
  return "anvil";
}

async function startAnvil(requireOld, runDir) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const p = startProcess(
    "anvil",
    anvilBinary(requireOld),
    // No automine: the scenario mines each block itself (evm_mine), as the repository's tests do.
    [
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--chain-id",
      String(CHAIN_ID),
      "--silent",
      "--no-mining",
    ],
    { env: { PATH: process.env.PATH }, logPath: join(runDir, "anvil.log") },
  );
  await waitUntil("anvil to answer", async () => {
    if (!p.running()) throw new SetupError(`anvil exited:\n${tail(p.logPath)}`);
    return (await rpc(url, "eth_chainId")) !== undefined;
  });
  return { url, process: p };
}

// ─── database ───────────────────────────────────────────────────────────────────────────────────────────────────

async function createDatabase(pg, serverUrl, name) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function dropDatabase(pg, serverUrl, name) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

async function withDb(pg, url, fn) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * A hash of every row of every table: taken before and after the requests, it shows that no request wrote (the
 * comparison would otherwise depend on the order in which the two servers were asked).
 */
async function databaseFingerprint(pg, url) {
  return withDb(pg, url, async (c) => {
    const tables = (
      await c.query("select tablename from pg_tables where schemaname = 'public' order by tablename")
    ).rows.map((r) => r.tablename);
    const out = {};
    for (const t of tables) {
      const { rows } = await c.query(
        `select count(*)::int as n, md5(coalesce(string_agg(md5(x::text), ',' order by md5(x::text)), '')) as h
           from public."${t}" x`,
      );
      out[t] = `${rows[0].n}:${rows[0].h}`;
    }
    return out;
  });
}

// ─── Lookout processes ──────────────────────────────────────────────────────────────────────────────────────────

/** The environment of every Lookout process: explicit, nothing inherited but PATH and HOME. */
function lookoutEnv(extra) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TZ: "UTC",
    HOST: "127.0.0.1",
    COMPILER_CONCURRENCY: "1",
    ...OFFLINE_COMPILER_LISTS,
    ...extra,
  };
}

function startLookout(co, name, args, env, runDir) {
  return startProcess(name, process.execPath, [co.cli, ...args], {
    env,
    cwd: co.root,
    logPath: join(runDir, `${name}.log`),
  });
}

/** Resolves once `/health` answers (any JSON); fails early when the process exits. */
async function waitForHttp(p, base, timeoutMs = 120_000) {
  await waitUntil(
    `${p.name} to answer on ${base}/health`,
    async () => {
      if (!p.running()) throw new SetupError(`${p.name} exited:\n${tail(p.logPath)}`);
      const res = await fetch(`${base}/health`).catch(() => null);
      return res ? (await res.json().catch(() => null)) !== null : false;
    },
    { timeoutMs },
  );
}

// ─── the scenario's contracts ───────────────────────────────────────────────────────────────────────────────────

const SOURCE_NAME = "ApiCompareScenario.sol";

/**
 * Our own token and helper contracts, compiled here (the repository's demo sources may move; this file must not
 * depend on the layout of either checkout). No imports, so the verification inputs are this one source.
 */
const SCENARIO_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// ERC-20 with an airdrop (one transaction, many Transfer events) and a burn (the total supply changes).
contract ScenarioCoin {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        allowance[from][msg.sender] -= value;
        _move(from, to, value);
        return true;
    }

    function airdrop(address[] calldata to, uint256 value) external {
        for (uint256 i = 0; i < to.length; i++) _move(msg.sender, to[i], value);
    }

    function burn(uint256 value) external {
        balanceOf[msg.sender] -= value;
        totalSupply -= value;
        emit Transfer(msg.sender, address(0), value);
    }

    function _move(address from, address to, uint256 value) private {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// ERC-721 whose metadata is an inline data: URI (no metadata server); id 13's document is broken on purpose.
contract ScenarioNft {
    string public name;
    string public symbol;
    mapping(uint256 => address) private owners;
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x80ac58cd || id == 0x5b5e139f || id == 0x01ffc9a7;
    }

    function ownerOf(uint256 id) public view returns (address owner) {
        owner = owners[id];
        require(owner != address(0), "ScenarioNft: not minted");
    }

    function tokenURI(uint256 id) external view returns (string memory) {
        ownerOf(id);
        if (id == 13) return "data:application/json;utf8,{broken";
        string memory n = _toString(id);
        return string.concat(
            'data:application/json;utf8,{"name":"Scenario NFT #', n,
            '","description":"api-compare","image":"https://example.com/nft/', n,
            '.png","attributes":[{"trait_type":"number","value":', n, "}]}"
        );
    }

    function mintMany(address to, uint256 first, uint256 count) external {
        for (uint256 i = 0; i < count; i++) _transfer(address(0), to, first + i);
    }

    function transferFrom(address from, address to, uint256 id) external {
        require(ownerOf(id) == from && from == msg.sender, "ScenarioNft: not owner");
        _transfer(from, to, id);
    }

    function burn(uint256 id) external {
        require(ownerOf(id) == msg.sender, "ScenarioNft: not owner");
        _transfer(msg.sender, address(0), id);
    }

    function _transfer(address from, address to, uint256 id) private {
        if (from != address(0)) balanceOf[from] -= 1;
        if (to != address(0)) balanceOf[to] += 1;
        owners[id] = to;
        emit Transfer(from, to, id);
    }
}

function _toString(uint256 v) pure returns (string memory) {
    if (v == 0) return "0";
    bytes memory b;
    while (v != 0) {
        b = abi.encodePacked(bytes1(uint8(48 + (v % 10))), b);
        v /= 10;
    }
    return string(b);
}

/// A minimal ERC-1155: single and batch transfers, uri with {id}.
contract ScenarioMulti {
    string public name;
    string public symbol;
    string private uri_;
    mapping(uint256 => mapping(address => uint256)) public balanceOf;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);

    constructor(string memory name_, string memory symbol_, string memory u) {
        name = name_;
        symbol = symbol_;
        uri_ = u;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0xd9b67a26 || id == 0x0e89341c || id == 0x01ffc9a7;
    }

    function uri(uint256) external view returns (string memory) {
        return uri_;
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata values) external {
        for (uint256 i = 0; i < ids.length; i++) balanceOf[ids[i]][to] += values[i];
        emit TransferBatch(msg.sender, address(0), to, ids, values);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata) external {
        require(from == msg.sender, "ScenarioMulti: not allowed");
        balanceOf[id][from] -= value;
        balanceOf[id][to] += value;
        emit TransferSingle(msg.sender, from, to, id, value);
    }

    function safeBatchTransferFrom(address from, address to, uint256[] calldata ids, uint256[] calldata values, bytes calldata)
        external
    {
        require(from == msg.sender, "ScenarioMulti: not allowed");
        for (uint256 i = 0; i < ids.length; i++) {
            balanceOf[ids[i]][from] -= values[i];
            balanceOf[ids[i]][to] += values[i];
        }
        emit TransferBatch(msg.sender, from, to, ids, values);
    }
}

/// A minimal ERC-404 (fungible units of 18 decimals, one NFT per whole unit), emitting ERC20Transfer/ERC721Transfer.
contract ScenarioHybrid {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public constant UNIT = 1e18;
    uint256 public totalSupply;
    uint256 public minted;
    string private base;
    mapping(address => uint256) public erc20BalanceOf;
    mapping(uint256 => address) private owners;
    mapping(address => uint256[]) private owned;
    mapping(uint256 => uint256) private ownedIndex;

    event ERC20Transfer(address indexed from, address indexed to, uint256 amount);
    event ERC721Transfer(address indexed from, address indexed to, uint256 indexed id);

    constructor(string memory name_, string memory symbol_, string memory base_) {
        name = name_;
        symbol = symbol_;
        base = base_;
    }

    function ownerOf(uint256 id) external view returns (address o) {
        o = owners[id];
        require(o != address(0), "ScenarioHybrid: not minted");
    }

    function tokenURI(uint256 id) external view returns (string memory) {
        return string.concat(base, '{"name":"Scenario hybrid #', _toString(id), '"}');
    }

    function mintUnits(address to, uint256 units) external {
        totalSupply += units * UNIT;
        erc20BalanceOf[to] += units * UNIT;
        emit ERC20Transfer(address(0), to, units * UNIT);
        for (uint256 i = 0; i < units; i++) _give(address(0), to, ++minted);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        uint256 fromBefore = erc20BalanceOf[msg.sender] / UNIT;
        uint256 toBefore = erc20BalanceOf[to] / UNIT;
        erc20BalanceOf[msg.sender] -= amount;
        erc20BalanceOf[to] += amount;
        emit ERC20Transfer(msg.sender, to, amount);
        uint256 fromAfter = erc20BalanceOf[msg.sender] / UNIT;
        uint256 toAfter = erc20BalanceOf[to] / UNIT;
        for (uint256 i = fromAfter; i < fromBefore; i++) _burnNewest(msg.sender);
        for (uint256 i = toBefore; i < toAfter; i++) _give(address(0), to, ++minted);
        return true;
    }

    function transferFrom(address from, address to, uint256 id) external {
        require(owners[id] == from && from == msg.sender, "ScenarioHybrid: not owner");
        erc20BalanceOf[from] -= UNIT;
        erc20BalanceOf[to] += UNIT;
        emit ERC20Transfer(from, to, UNIT);
        _take(from, id);
        _give(from, to, id);
    }

    function _give(address from, address to, uint256 id) private {
        owners[id] = to;
        ownedIndex[id] = owned[to].length;
        owned[to].push(id);
        emit ERC721Transfer(from, to, id);
    }

    function _take(address from, uint256 id) private {
        uint256 idx = ownedIndex[id];
        uint256 last = owned[from][owned[from].length - 1];
        owned[from][idx] = last;
        ownedIndex[last] = idx;
        owned[from].pop();
        delete owners[id];
    }

    function _burnNewest(address from) private {
        uint256 id = owned[from][owned[from].length - 1];
        _take(from, id);
        emit ERC721Transfer(from, address(0), id);
    }
}

contract Child {
    address public parent;
    uint256 public tag;

    constructor(uint256 tag_) payable {
        parent = msg.sender;
        tag = tag_;
    }

    function ping() external returns (uint256) {
        return ++tag;
    }
}

contract Reverter {
    constructor() {
        revert("Reverter: never deployed");
    }
}

/// Internal transactions: CREATE and CREATE2 with value, value transfers, a failed inner creation, reverts.
contract Factory {
    event Spawned(address indexed child, bool indexed viaCreate2, uint256 tag);
    event Paid(address indexed to, uint256 amount);
    event Note(address indexed from, string text);

    error NotAllowed(address caller, uint256 code);

    address[] public children;

    function spawn(uint256 tag) external payable returns (address a, address b) {
        Child c1 = new Child{value: msg.value / 2}(tag);
        Child c2 = new Child{salt: bytes32(tag), value: msg.value - msg.value / 2}(tag + 1);
        children.push(address(c1));
        children.push(address(c2));
        emit Spawned(address(c1), false, tag);
        emit Spawned(address(c2), true, tag + 1);
        c1.ping();
        return (address(c1), address(c2));
    }

    function payout(address payable[] calldata to) external payable {
        uint256 each = msg.value / to.length;
        for (uint256 i = 0; i < to.length; i++) {
            (bool ok, ) = to[i].call{value: each}("");
            require(ok, "Factory: payment failed");
            emit Paid(to[i], each);
        }
    }

    function tryReverter() external returns (bool created) {
        try new Reverter() returns (Reverter) {
            created = true;
        } catch {
            created = false;
        }
    }

    function note(string calldata text) external {
        emit Note(msg.sender, text);
    }

    function fail(uint256 x) external pure returns (uint256) {
        require(x > 100, "Factory: x too small");
        return x;
    }

    function failCustom() external view {
        revert NotAllowed(msg.sender, 7);
    }
}

/// An EIP-1967 proxy (the explorer shows its implementation's ABI).
contract ScenarioProxy {
    bytes32 private constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;

    event Upgraded(address indexed implementation);

    constructor(address implementation) {
        assembly {
            sstore(IMPLEMENTATION_SLOT, implementation)
        }
        emit Upgraded(implementation);
    }

    receive() external payable {}

    fallback() external payable {
        assembly {
            let impl := sload(IMPLEMENTATION_SLOT)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }
}
`;

/** The standard JSON input the contracts are deployed from (and verified with). */
function standardInput(source = SCENARIO_SOURCE, optimizer = true) {
  return {
    language: "Solidity",
    sources: { [SOURCE_NAME]: { content: source } },
    settings: {
      optimizer: { enabled: optimizer, runs: 200 },
      // Fixed rather than the compiler's default, which follows the newest hard fork.
      evmVersion: "cancun",
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
}

function compileScenario(solc) {
  const out = JSON.parse(solc.compile(JSON.stringify(standardInput())));
  const errors = (out.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length)
    throw new SetupError(
      `compiling the scenario failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`,
    );
  const artifacts = {};
  for (const [name, c] of Object.entries(out.contracts[SOURCE_NAME]))
    artifacts[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  // `0.8.37+commit.f401782d.Emscripten.clang` → the long version the verifier APIs take.
  const version = solc.version().replace(/\.Emscripten.*$/, "");
  return { artifacts, compiler: `v${version}` };
}

// ─── the scenario on the chain ──────────────────────────────────────────────────────────────────────────────────

/**
 * Runs the chain activity (anvil's unlocked accounts sign) while OLD's `lookout start` indexes it, and returns the
 * addresses, transactions and blocks the URL list is filled from. Each block is mined alone (evm_mine) and the next
 * one only once `indexed(block)` says the indexer has written it: anvil answers a transaction or evm_mine only after
 * the debug_traceBlockByNumber calls in progress (seconds for the block of 55 transactions, replayed once per
 * transaction and tracer), and with both going on at once runs stalled past a minute now and then.
 */
async function runChainActivity(chainUrl, viem, build, indexed) {
  const {
    encodeDeployData,
    encodeFunctionData,
    encodeAbiParameters,
    parseEther,
    getAddress,
    keccak256,
    toHex,
  } = viem;
  const { artifacts } = build;
  const hex = (n) => `0x${BigInt(n).toString(16)}`;
  const accounts = (await rpc(chainUrl, "eth_accounts")).map((a) => getAddress(a));
  const [A, B, C, D] = accounts;

  /** Sends one transaction and waits for its receipt; `reverts` says which status is expected. */
  async function send(tx, { reverts = false } = {}) {
    const params = { gas: hex(3_000_000), ...tx };
    if (tx.value !== undefined) params.value = hex(tx.value);
    const hash = await rpc(chainUrl, "eth_sendTransaction", [params]);
    await rpc(chainUrl, "evm_mine");
    const receipt = await rpc(chainUrl, "eth_getTransactionReceipt", [hash]);
    if (!receipt) throw new SetupError(`scenario transaction ${hash} was not mined`);
    await indexed(Number(receipt.blockNumber));
    if ((receipt.status === "0x1") === reverts)
      throw new SetupError(`scenario transaction ${hash} ${reverts ? "did not revert" : "reverted"}`);
    return receipt;
  }
  const deploy = async (name, args = [], opts = {}) => {
    const r = await send(
      {
        from: A,
        data: encodeDeployData({ abi: artifacts[name].abi, bytecode: artifacts[name].bytecode, args }),
      },
      opts,
    );
    return { address: r.contractAddress ? getAddress(r.contractAddress) : null, tx: r.transactionHash };
  };
  const call = async (from, to, name, functionName, args = [], extra = {}, opts = {}) =>
    (
      await send(
        { from, to, data: encodeFunctionData({ abi: artifacts[name].abi, functionName, args }), ...extra },
        opts,
      )
    ).transactionHash;

  const tx = {};
  const ether = (s) => parseEther(s);

  // ETH transfers, one of each transaction type: EIP-1559, legacy, EIP-2930 (access list).
  tx.ethTransfer = (await send({ from: A, to: B, value: ether("1") })).transactionHash;
  tx.legacy = (
    await send({ from: A, to: C, value: ether("0.5"), gasPrice: hex(3_000_000_000) })
  ).transactionHash;
  tx.accessList = (
    await send({
      from: A,
      to: D,
      value: ether("0.25"),
      type: "0x1",
      gasPrice: hex(3_000_000_000),
      accessList: [{ address: B, storageKeys: [] }],
    })
  ).transactionHash;

  // One block of 55 transactions (more than a page of 50): send them all, mine once.
  const batchHashes = [];
  for (let i = 0; i < 55; i++) {
    const from = accounts[4 + (i % 6)];
    const to = accounts[1 + (i % 3)];
    batchHashes.push(
      await rpc(chainUrl, "eth_sendTransaction", [
        { from, to, value: hex(ether("0.01") * BigInt(i + 1)), gas: hex(21_000) },
      ]),
    );
  }
  await rpc(chainUrl, "evm_mine", []);
  const batchReceipt = await rpc(chainUrl, "eth_getTransactionReceipt", [batchHashes[7]]);
  tx.batched = batchHashes[7];
  const batchBlock = Number(batchReceipt.blockNumber);
  await indexed(batchBlock);

  // ERC-20: transfers, an allowance spent, an airdrop to 55 new holders (more than a page), a burn.
  const coinArgs = ["Scenario Coin", "SCN", 10n ** 27n];
  const coin = await deploy("ScenarioCoin", coinArgs);
  tx.coinDeploy = coin.tx;
  await call(A, coin.address, "ScenarioCoin", "transfer", [B, 1000n * 10n ** 18n]);
  await call(A, coin.address, "ScenarioCoin", "transfer", [C, 250n * 10n ** 18n]);
  await call(A, coin.address, "ScenarioCoin", "approve", [B, 100n * 10n ** 18n]);
  await call(B, coin.address, "ScenarioCoin", "transferFrom", [A, D, 50n * 10n ** 18n]);
  const airdropped = Array.from({ length: 55 }, (_, i) =>
    getAddress(`0x${keccak256(toHex(`airdrop-${i}`)).slice(-40)}`),
  );
  tx.airdrop = await call(A, coin.address, "ScenarioCoin", "airdrop", [airdropped, 10n ** 18n]);
  await call(A, coin.address, "ScenarioCoin", "burn", [10n ** 18n]);

  // ERC-721: 60 mints in one transaction (60 logs and transfers), transfers, a burn, a mint to another owner.
  const nft = await deploy("ScenarioNft", ["Scenario NFT", "SNFT"]);
  tx.nftMint = await call(A, nft.address, "ScenarioNft", "mintMany", [A, 1n, 60n]);
  await call(A, nft.address, "ScenarioNft", "transferFrom", [A, B, 1n]);
  await call(A, nft.address, "ScenarioNft", "transferFrom", [A, C, 2n]);
  await call(A, nft.address, "ScenarioNft", "burn", [3n]);
  await call(A, nft.address, "ScenarioNft", "mintMany", [B, 100n, 2n]);

  // ERC-1155: a batch mint, a single and a batch transfer.
  const multi = await deploy("ScenarioMulti", [
    "Scenario Multi",
    "SMU",
    'data:application/json;utf8,{"name":"Scenario item {id}"}',
  ]);
  await call(A, multi.address, "ScenarioMulti", "mintBatch", [A, [1n, 2n, 3n, 4n], [10n, 5n, 1n, 20n]]);
  await call(A, multi.address, "ScenarioMulti", "safeTransferFrom", [A, B, 1n, 4n, "0x"]);
  tx.multiBatch = await call(A, multi.address, "ScenarioMulti", "safeBatchTransferFrom", [
    A,
    C,
    [2n, 4n],
    [2n, 5n],
    "0x",
  ]);

  // ERC-404: units minted (ids 1-5), 2.5 units moved (A's ids 3-5 burnt, D gets 6 and 7), an id moved.
  const hybrid = await deploy("ScenarioHybrid", ["Scenario Hybrid", "SHY", "data:application/json;utf8,"]);
  await call(A, hybrid.address, "ScenarioHybrid", "mintUnits", [A, 5n]);
  tx.hybridTransfer = await call(A, hybrid.address, "ScenarioHybrid", "transfer", [D, ether("2.5")]);
  await call(A, hybrid.address, "ScenarioHybrid", "transferFrom", [A, B, 1n]);

  // Internal transactions, reverts (reason string, custom error), a failed inner and a failed top-level creation.
  const factory = await deploy("Factory");
  const spawnReceipt = await send({
    from: A,
    to: factory.address,
    value: ether("1"),
    data: encodeFunctionData({ abi: artifacts.Factory.abi, functionName: "spawn", args: [7n] }),
  });
  tx.spawn = spawnReceipt.transactionHash;
  const spawned = keccak256(toHex("Spawned(address,bool,uint256)"));
  const children = spawnReceipt.logs
    .filter((l) => l.topics[0] === spawned)
    .map((l) => getAddress(`0x${l.topics[1].slice(26)}`));
  tx.payout = await call(A, factory.address, "Factory", "payout", [[B, C, D]], { value: ether("3") });
  tx.innerFailedCreation = await call(A, factory.address, "Factory", "tryReverter");
  tx.revertReason = await call(A, factory.address, "Factory", "fail", [1n], {}, { reverts: true });
  tx.revertCustom = await call(A, factory.address, "Factory", "failCustom", [], {}, { reverts: true });
  tx.failedCreation = (await deploy("Reverter", [], { reverts: true })).tx;

  // An EIP-1967 proxy of the factory, called through (delegatecall) and paid.
  const proxy = await deploy("ScenarioProxy", [factory.address]);
  tx.proxyCall = await call(A, proxy.address, "Factory", "note", ["through the proxy"]);
  await send({ from: B, to: proxy.address, value: ether("0.1") });

  const coinConstructorArgs = encodeAbiParameters(
    [{ type: "string" }, { type: "string" }, { type: "uint256" }],
    coinArgs,
  ).slice(2);
  return {
    accounts,
    tx,
    batchBlock,
    airdropped,
    children,
    coinArgs,
    coinConstructorArgs,
    addr: {
      coin: coin.address,
      nft: nft.address,
      multi: multi.address,
      hybrid: hybrid.address,
      factory: factory.address,
      proxy: proxy.address,
    },
    creationTx: { coin: coin.tx, nft: nft.tx, multi: multi.tx, hybrid: hybrid.tx, proxy: proxy.tx },
    /** Activity after the verifications: an automatically verified copy, calls decoded with verified ABIs. */
    async afterVerification() {
      const copy = await deploy("ScenarioCoin", coinArgs);
      tx.decodedCall = await call(A, coin.address, "ScenarioCoin", "transfer", [B, 10n ** 18n]);
      tx.note = await call(B, factory.address, "Factory", "note", ["after verification"]);
      return copy.address;
    },
  };
}

// ─── verification through OLD's APIs ────────────────────────────────────────────────────────────────────────────

async function httpJson(method, url, body, contentType = "application/json") {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { "content-type": contentType },
    body,
  });
  const text = await res.text();
  try {
    return { status: res.status, json: JSON.parse(text) };
  } catch {
    throw new SetupError(`${method} ${url} answered ${res.status}: ${text.slice(0, 500)}`);
  }
}

/**
 * Verifies contracts through the three verifier dialects, so smart-contract pages, decoded inputs and logs, the
 * Etherscan and Sourcify lookups have data: /api/v1 (factory and proxy, full matches), Etherscan (the coin, with
 * constructor arguments; the hybrid with a changed comment, a partial match; the multi-token without the optimizer,
 * a failure), Sourcify (the NFT). Returns the job ids the URL list asks about.
 */
async function verifyContracts(base, chain, compiler) {
  const input = JSON.stringify(standardInput());
  const v1 = await httpJson(
    "POST",
    `${base}/api/v1/solidity/sources:verify-standard-json`,
    JSON.stringify({
      contracts: [
        { chainId: String(CHAIN_ID), address: chain.addr.factory },
        { chainId: String(CHAIN_ID), address: chain.addr.proxy },
      ],
      compiler,
      input,
    }),
  );
  const items = v1.json.contractVerificationResults?.items ?? [];
  if (v1.status !== 200 || items.length !== 2 || items.some((i) => i.status !== "FULLY_VERIFIED"))
    throw new SetupError(
      `/api/v1 verification did not fully verify: ${JSON.stringify(v1.json).slice(0, 800)}`,
    );

  const etherscan = async (address, name, sourceInput, constructorArgs) => {
    const form = new URLSearchParams({
      module: "contract",
      action: "verifysourcecode",
      contractaddress: address,
      sourceCode: JSON.stringify(sourceInput),
      codeformat: "solidity-standard-json-input",
      contractname: `${SOURCE_NAME}:${name}`,
      compilerversion: compiler,
      ...(constructorArgs ? { constructorArguements: constructorArgs } : {}),
    });
    const r = await httpJson("POST", `${base}/api`, form.toString(), "application/x-www-form-urlencoded");
    if (r.json.status !== "1") throw new SetupError(`Etherscan verifysourcecode: ${JSON.stringify(r.json)}`);
    return r.json.result;
  };
  const guids = {
    coin: await etherscan(chain.addr.coin, "ScenarioCoin", standardInput(), chain.coinConstructorArgs),
    partial: await etherscan(
      chain.addr.hybrid,
      "ScenarioHybrid",
      standardInput(`${SCENARIO_SOURCE}\n// changed after deployment: the metadata hash differs\n`),
    ),
    failed: await etherscan(chain.addr.multi, "ScenarioMulti", standardInput(SCENARIO_SOURCE, false)),
  };
  const sourcify = await httpJson(
    "POST",
    `${base}/sourcify/v2/verify/${CHAIN_ID}/${chain.addr.nft}`,
    JSON.stringify({
      stdJsonInput: standardInput(),
      compilerVersion: compiler.replace(/^v/, ""),
      contractIdentifier: `${SOURCE_NAME}:ScenarioNft`,
      creationTransactionHash: chain.creationTx.nft,
    }),
  );
  if (sourcify.status !== 202) throw new SetupError(`Sourcify verify: ${JSON.stringify(sourcify.json)}`);
  const verificationId = sourcify.json.verificationId;

  // Wait for the jobs (checkverifystatus itself waits a few seconds for an unfinished job).
  const expected = { coin: "Pass - Verified", partial: "Pass - Verified", failed: "Fail - Unable to verify" };
  for (const [k, guid] of Object.entries(guids)) {
    const result = await waitUntil(
      `Etherscan job ${k}`,
      async () => {
        const r = await httpJson("GET", `${base}/api?module=contract&action=checkverifystatus&guid=${guid}`);
        return r.json.result === "Pending in queue" ? null : String(r.json.result);
      },
      { timeoutMs: 300_000 },
    );
    if (!result.startsWith(expected[k]))
      throw new SetupError(`Etherscan job ${k}: expected "${expected[k]}", got "${result}"`);
  }
  await waitUntil(
    "the Sourcify job",
    async () => {
      const r = await httpJson("GET", `${base}/sourcify/v2/verify/${verificationId}`);
      return r.json.isJobCompleted ? r.json : null;
    },
    { timeoutMs: 300_000 },
  );
  return { guids, verificationId };
}

// ─── settling ───────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Waits until nothing is left to write: the index at the chain head, every token's properties and every token
 * instance's metadata fetched (or its failure recorded), no verification job pending or running. The last two are
 * read from the tables of OLD's schema (OLD's `start` is the only writer).
 */
async function waitSettled(indexBase, chainUrl, pg, dbUrl) {
  await waitUntil(
    "the index to reach the chain head",
    async () => {
      const head = Number(await rpc(chainUrl, "eth_blockNumber"));
      const h = await (await fetch(`${indexBase}/health`)).json();
      return h.indexer?.height === head && h.indexer?.caught_up;
    },
    { timeoutMs: 180_000 },
  );
  await waitUntil(
    "token properties and metadata to be fetched, verification jobs to finish",
    () =>
      withDb(pg, dbUrl, async (c) => {
        const { rows } = await c.query(
          `select (select count(*) from tokens where properties_fetched_at is null or supply_stale)::int as properties,
                  (select count(*) from token_instances
                    where fetched_at is null and fetch_attempts = 0 and not gave_up)::int as metadata,
                  (select count(*) from verification_jobs where state <> 'done')::int as jobs`,
        );
        const r = rows[0];
        return r.properties === 0 && r.metadata === 0 && r.jobs === 0;
      }),
    { timeoutMs: 180_000, intervalMs: 500 },
  );
}

// ─── the request list ───────────────────────────────────────────────────────────────────────────────────────────

/** Values of an OpenAPI schema's enum (`enum`, `const`, or an `anyOf` of those), else null. */
function enumValues(schema = {}) {
  if (Array.isArray(schema.enum)) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  const alts = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alts)) {
    const vals = alts.flatMap((a) => enumValues(a) ?? [null]);
    return vals.includes(null) ? null : vals;
  }
  return null;
}

/** Values a documented query parameter must refuse (422 in /api/v2), from its schema. */
function invalidValues(schema = {}) {
  if (enumValues(schema)) return ["bogus"];
  if (schema.type === "integer" || schema.type === "number") {
    const out = ["abc"];
    if (typeof schema.maximum === "number" && schema.maximum < 2 ** 31) out.push(String(schema.maximum + 1));
    if (typeof schema.minimum === "number" && schema.minimum > 0) out.push(String(schema.minimum - 1));
    return out;
  }
  if (schema.pattern) return ["not-valid!"];
  if (typeof schema.maxLength === "number") return ["x".repeat(schema.maxLength + 1)];
  return [];
}

/** What kind of value a path parameter takes, from its name and the route. */
function paramKind(name, template) {
  const n = name.toLowerCase();
  if (n.includes("transaction") || /^tx/.test(n)) return "tx";
  if (n.includes("block")) return "block";
  if (n.includes("token_id") || n === "id") return "tokenId";
  if (n.includes("verification")) return "verificationId";
  if (n.includes("chain")) return "chainId";
  if (n === "method") return "method";
  if (n.includes("address") || n.includes("hash")) {
    if (template.startsWith("/api/v2/tokens/")) return "token";
    if (template.includes("/smart-contracts/") || template.startsWith("/sourcify/")) return "contract";
    return "address";
  }
  return "unknown";
}

/**
 * The values the scenario gives each kind of path parameter: the interesting cases first (the first value is the
 * one query variants are tried with), then unknown and malformed ones.
 */
function pathValues(f) {
  const a = f.addr;
  const contracts = [
    a.factory,
    a.proxy,
    a.coin,
    a.coinCopy,
    a.nft,
    a.hybrid,
    a.multi,
    f.children[0],
    f.accounts[0],
  ];
  return {
    address: [
      f.accounts[0],
      f.accounts[1],
      f.accounts[2],
      f.accounts[3],
      f.airdropped[0],
      f.miner,
      a.coin,
      a.nft,
      a.multi,
      a.hybrid,
      a.factory,
      a.proxy,
      f.children[0],
      a.coinCopy,
      UNKNOWN_ADDRESS,
      f.accounts[0].toLowerCase(),
      "0x123",
    ],
    token: [a.coin, a.nft, a.multi, a.hybrid, a.coinCopy, a.factory, f.accounts[0], UNKNOWN_ADDRESS, "0x123"],
    contract: [...contracts, UNKNOWN_ADDRESS, "0x123"],
    tx: [...Object.values(f.tx), UNKNOWN_TX, "0x1234"],
    block: [
      "0",
      "1",
      String(f.batchBlock),
      String(f.head),
      f.batchBlockHash,
      String(f.head + 1000),
      `0x${"cd".repeat(32)}`,
      "abc",
    ],
    tokenId: ["1", "4", "13", "9999"],
    verificationId: [f.verificationId, "00000000-0000-4000-8000-000000000000", "not-a-uuid"],
    chainId: [String(CHAIN_ID), "1", "x"],
    method: ["unknown-method"],
    unknown: ["1"],
  };
}

/** (token, id) pairs of the instance routes: minted, burnt, broken metadata, never minted, not an NFT. */
function instancePairs(f) {
  const a = f.addr;
  return [
    [a.nft, "1"],
    [a.nft, "3"],
    [a.nft, "4"],
    [a.nft, "13"],
    [a.nft, "100"],
    [a.nft, "9999"],
    [a.multi, "1"],
    [a.multi, "4"],
    [a.multi, "77"],
    [a.hybrid, "1"],
    [a.hybrid, "5"],
    [a.hybrid, "6"],
    [a.coin, "1"],
    [f.accounts[0], "1"],
  ];
}

/** Hand-picked values of the documented query parameters that filter or search (cursors are followed instead). */
function knownQueryValues(name, template, f) {
  const a = f.addr;
  const tokenTypes = ["ERC-20", "ERC-721", "ERC-1155", "ERC-404", "ERC-721,ERC-1155", ""];
  switch (name) {
    case "type":
      if (template === "/api/v2/transactions" || template.endsWith("/transactions"))
        return [
          "token_transfer",
          "contract_creation",
          "contract_call",
          "coin_transfer",
          "token_creation",
          "",
        ];
      return tokenTypes;
    case "filter":
      return [""];
    case "method":
      return ["transfer", "approve,transfer"];
    case "q":
      if (template.startsWith("/api/v2/tokens")) return ["Scen", "scn", "SCN", a.coin, "nothing-like-this"];
      if (template.startsWith("/api/v2/smart-contracts")) return ["Factory", "scenario", "zz"];
      if (template.startsWith("/api/v2/search"))
        return [
          "Scenario",
          "SCN",
          "scenario nft",
          "Fac",
          "ab",
          a.coin,
          f.accounts[1],
          f.tx.nftMint,
          String(f.batchBlock),
          f.batchBlockHash,
          "nothing-like-this",
        ];
      return ["Scenario"];
    case "token":
      return [a.coin, a.nft];
    case "topic":
      return [TRANSFER_TOPIC, `0x${"00".repeat(32)}`];
    case "service":
      return ["", "lookout"];
    default:
      return null;
  }
}

/** Query parameters that are page cursors or API keys: reached by following next_page_params, not tried alone. */
const CURSOR_PARAMS = new Set([
  "items_count",
  "apikey",
  "key",
  "block_number",
  "index",
  "transaction_index",
  "batch_index",
  "value",
  "token_contract_address_hash",
  "token_type",
  "token_id",
  "unique_token",
  "address_hash",
  "contract_address_hash",
  "holders_count",
  "name",
  "is_name_null",
  "market_cap",
  "fiat_value",
  "fetched_coin_balance",
  "hash",
  "smart_contract_id",
  "state_changes",
  "token_name",
  "item_type",
  "block_hash",
  "transaction_hash",
  "inserted_at",
]);

/**
 * Requests from the OpenAPI document: every GET operation with its path parameters filled (one parameter varied at
 * a time; token instances as (token, id) pairs), its documented filters with valid and invalid values, and a cursor
 * in the middle of the chain for block-ordered lists. Writes (PATCH, and POSTs, which are listed by hand) are left out.
 */
function requestsFromOpenApi(doc, f) {
  const values = pathValues(f);
  const out = [];
  const skipped = [];
  for (const [template, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      if (method !== "get") {
        skipped.push(`${method.toUpperCase()} ${template}`);
        continue;
      }
      const params = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === "path").map((p) => p.name);
      const queryParams = params.filter((p) => p.in === "query");
      const fill = (assign) => template.replace(/\{([^}]+)\}/g, (_, n) => encodeURIComponent(assign[n]));
      // Path parameter combinations.
      const kinds = Object.fromEntries(pathParams.map((n) => [n, paramKind(n, template)]));
      const combos = [];
      const tokenParam = pathParams.find((n) => kinds[n] === "token");
      const idParam = pathParams.find((n) => kinds[n] === "tokenId");
      if (tokenParam && idParam) {
        for (const [t, id] of instancePairs(f)) combos.push({ [tokenParam]: t, [idParam]: id });
      } else {
        const base = Object.fromEntries(pathParams.map((n) => [n, values[kinds[n]][0]]));
        combos.push(base);
        for (const n of pathParams)
          for (const v of values[kinds[n]].slice(1)) combos.push({ ...base, [n]: v });
      }
      for (const c of combos) out.push({ method: "GET", path: fill(c), template, follow: true });
      // Query variants, on the first combination.
      const path0 = fill(combos[0]);
      for (const q of queryParams) {
        if (CURSOR_PARAMS.has(q.name)) {
          for (const bad of invalidValues(q.schema))
            out.push({ method: "GET", path: path0 + queryString({ [q.name]: bad }), template });
          continue;
        }
        // A documented enum is tried whole (and empty, which the frontend sends for "no filter"); other filters
        // get the hand-picked values.
        const enumVals = enumValues(q.schema);
        const vals = enumVals ? [...enumVals.map(String), ""] : (knownQueryValues(q.name, template, f) ?? []);
        for (const v of new Set(vals))
          out.push({ method: "GET", path: path0 + queryString({ [q.name]: v }), template, follow: true });
        for (const bad of invalidValues(q.schema))
          out.push({ method: "GET", path: path0 + queryString({ [q.name]: bad }), template });
      }
      // A cursor in the middle of the chain (lists shorter than a page never hand one out).
      const names = new Set(queryParams.map((q) => q.name));
      if (names.has("block_number")) {
        const cursor = { block_number: f.batchBlock };
        for (const k of ["index", "transaction_index", "batch_index"])
          if (names.has(k)) cursor[k] = k === "index" ? 10 : 0;
        if (names.has("items_count")) cursor.items_count = 50;
        out.push({ method: "GET", path: path0 + queryString(cursor), template, follow: true });
      }
    }
  }
  return { requests: out, skipped };
}

const json = (v) => ({ body: JSON.stringify(v), headers: { "content-type": "application/json" } });

/** Requests the OpenAPI document does not describe: dialect edges, other APIs' GETs, read-only POSTs. */
function handWrittenRequests(f) {
  const a = f.addr;
  const A = f.accounts[0];
  const get = (path, extra = {}) => ({ method: "GET", path, ...extra });
  const post = (path, body, extra = {}) => ({ method: "POST", path, ...body, ...extra });
  const api = (params) => get(`/api${queryString(params)}`);
  const out = [
    // Documents and operations routes.
    get("/api/docs/openapi.json"),
    get("/api/docs"),
    get("/api/docs/"),
    get("/api/docs/json"),
    get("/api/docs/yaml"),
    get("/api/docs/uiConfig"),
    get("/api/docs/initOAuth"),
    get("/api/docs/static/index.html"),
    get("/metrics"),
    get("/socket/v2/websocket"),
    get("/socket/v2/websocket?vsn=2.0.0"),
    // Unknown routes and methods, trailing slashes, odd URLs.
    get("/"),
    get("/nope"),
    get("/api/v2/does-not-exist"),
    get("/api/v3/anything"),
    get("/api/v1/nope"),
    get("/sourcify/nope"),
    get("/api/v2/stats/"),
    get("/api/v2/blocks/"),
    get("/API/V2/STATS"),
    { method: "DELETE", path: "/api/v2/stats" },
    { method: "PUT", path: "/api/v1/chains" },
    post("/api/v2/stats", json({})),
    { method: "HEAD", path: "/api/v2/stats" },
    { method: "HEAD", path: "/health" },
    {
      method: "OPTIONS",
      path: "/api/v2/stats",
      headers: { "access-control-request-method": "GET", "access-control-request-headers": "content-type" },
    },
    {
      method: "OPTIONS",
      path: "/api/v2/bytecodes/sources:search",
      headers: { "access-control-request-method": "POST" },
    },
    // Invalid input in the /api/v2 dialect (422) and the framework's edges.
    get(`/api/v2/addresses/0xZZ${"0".repeat(38)}`),
    get(`/api/v2/addresses/${"a".repeat(3000)}`),
    get("/api/v2/blocks?block_number=1e999"),
    get("/api/v2/blocks?items_count=Infinity"),
    get("/api/v2/blocks?items_count=NaN"),
    get("/api/v2/blocks?block_number=-1&items_count=50"),
    get("/api/v2/blocks?block_number=5"),
    get("/api/v2/blocks?apikey=anything"),
    get(`/api/v2/addresses/${A}?unknown_member=1`),
    get(`/api/v2/addresses/${A}/transactions?filter=to&filter=from`),
    get(`/api/v2/addresses/${A}/token-transfers?type=ERC-20&filter=from&token=${a.coin}`),
    get(`/api/v2/addresses/${A}/token-transfers?type=ERC-721,ERC-1155,ERC-404&filter=to`),
    get(`/api/v2/transactions/${f.tx.nftMint.toUpperCase().replace("0X", "0x")}`),
    get(`/api/v2/tokens/${a.nft.toLowerCase()}/instances/0001`),
    get("/api/v2/search?q="),
    get("/api/v2/search?q=%20"),
    get("/api/v2/search?q=%E2%82%AC%F0%9F%98%80"),
    get("/api/v2/search/check-redirect?q=1"),
    get("/health?service=lookout.Health"),
    // Etherscan-compatible /api: lookups, job status, unknown module and action.
    ...[
      a.coin,
      a.factory,
      a.coinCopy,
      a.hybrid,
      a.multi,
      a.nft,
      f.children[0],
      A,
      UNKNOWN_ADDRESS,
      "0x123",
      "",
    ].flatMap((address) => [
      api({ module: "contract", action: "getabi", address }),
      api({ module: "contract", action: "getsourcecode", address }),
    ]),
    api({ module: "contract", action: "getsourcecode" }),
    api({
      module: "contract",
      action: "getcontractcreation",
      contractaddresses: [a.coin, a.factory, f.children[0]].join(","),
    }),
    api({
      module: "contract",
      action: "getcontractcreation",
      contractaddresses: [A, UNKNOWN_ADDRESS].join(","),
    }),
    api({ module: "contract", action: "getcontractcreation", contractaddresses: "0x123" }),
    api({ module: "contract", action: "getcontractcreation" }),
    api({ module: "contract", action: "checkverifystatus", guid: f.guids.coin }),
    api({ module: "contract", action: "checkverifystatus", guid: f.guids.partial }),
    api({ module: "contract", action: "checkverifystatus", guid: f.guids.failed }),
    api({ module: "contract", action: "checkverifystatus", guid: "00000000-0000-4000-8000-000000000000" }),
    api({ module: "contract", action: "checkverifystatus", guid: "not-a-guid" }),
    api({ module: "contract", action: "nope" }),
    api({ module: "contract" }),
    api({ module: "account", action: "balance", address: A }),
    api({ MODULE: "Contract", Action: "GETABI", Address: a.coin }),
    get("/api"),
    get(`/api/?module=contract&action=getabi&address=${a.coin}`),
    // Sourcify: field selection on full, partial and job-verified contracts.
    ...[a.nft, a.coin, a.hybrid, a.factory].flatMap((c) => [
      get(`/sourcify/v2/contract/${CHAIN_ID}/${c}?fields=all`),
      get(`/sourcify/v2/contract/${CHAIN_ID}/${c}?fields=abi,compilation`),
      get(`/sourcify/v2/contract/${CHAIN_ID}/${c}?omit=sources,stdJsonInput`),
    ]),
    get(`/sourcify/v2/contract/${CHAIN_ID}/${a.nft}?fields=bogus`),
    get(`/sourcify/v2/contract/${CHAIN_ID}/${a.nft}?fields=all&omit=abi`),
    get(`/sourcify/v2/contract/${CHAIN_ID}/${a.nft.toLowerCase()}`),
    get(`/sourcify/v2/contract/all-chains/${a.coin}`),
    get(`/sourcify/v2/verify/${f.verificationId.toUpperCase()}`),
    // Read-only POSTs: bytecode search, and verify requests refused before any work or write.
    post(
      "/api/v2/bytecodes/sources:search",
      json({ bytecode: f.code.coinCreation, bytecodeType: "CREATION_INPUT" }),
    ),
    post(
      "/api/v2/bytecodes/sources:search",
      json({ bytecode: f.code.coinRuntime, bytecodeType: "DEPLOYED_BYTECODE" }),
    ),
    post(
      "/api/v2/bytecodes/sources:search",
      json({ bytecode: f.code.hybridRuntime, bytecodeType: "DEPLOYED_BYTECODE" }),
    ),
    post(
      "/api/v2/bytecodes/sources:search",
      json({ bytecode: "0x6080604052", bytecodeType: "CREATION_INPUT" }),
    ),
    post("/api/v2/bytecodes/sources:search", json({ bytecode: "not hex", bytecodeType: "CREATION_INPUT" })),
    post("/api/v2/bytecodes/sources:search", json({})),
    post("/api/v2/bytecodes/sources:search", {
      body: "{not json",
      headers: { "content-type": "application/json" },
    }),
    post("/api/v2/bytecodes/sources:search", { body: "x", headers: { "content-type": "text/plain" } }),
    post(
      "/api/v2/bytecodes/sources%3Asearch",
      json({ bytecode: f.code.coinCreation, bytecodeType: "CREATION_INPUT" }),
    ),
    post(
      "/api/v2/bytecodes/sources:search-all",
      json({
        bytecode: f.code.coinRuntime,
        bytecodeType: "DEPLOYED_BYTECODE",
        chain: String(CHAIN_ID),
        address: a.coin,
      }),
    ),
    post(
      "/api/v2/bytecodes/sources:search-all",
      json({ bytecode: f.code.coinCreation, bytecodeType: "CREATION_INPUT" }),
    ),
    post("/api/v2/bytecodes/sources:search-sourcify", json({ chain: String(CHAIN_ID), address: a.nft })),
    post("/api/v2/bytecodes/sources:search-sourcify", json({ chain: String(CHAIN_ID), address: a.multi })),
    post("/api/v2/bytecodes/sources:search-alliance", json({ chain: String(CHAIN_ID), address: a.coin })),
    post("/api/v2/bytecodes/sources:search-alliance", json({ chain: "1", address: a.coin })),
    post("/api/v1/solidity/sources:verify-standard-json", json({})),
    post(
      "/api/v1/solidity/sources:verify-standard-json",
      json({
        contracts: [{ chainId: String(CHAIN_ID), address: "0x12" }],
        compiler: f.compiler,
        input: "{}",
      }),
    ),
    post(
      "/api/v1/solidity/sources:verify-standard-json",
      json({ contracts: [{ chainId: "999", address: a.coin }], compiler: f.compiler, input: "{}" }),
    ),
    post("/api/v1/solidity/sources:verify-multi-part", json({ contracts: [] })),
    post("/api/v1/vyper/sources:verify-standard-json", json({})),
    post("/api/v1/vyper/sources:verify-multi-part", json({})),
    post("/api/v2/verifier/solidity/sources:verify-standard-json", json({})),
    post("/api/v2/verifier/solidity/sources:verify-multi-part", json({})),
    post("/api/v2/verifier/vyper/sources:verify-standard-json", json({})),
    post("/api/v2/verifier/vyper/sources:verify-multi-part", json({})),
    post("/api/v2/verifier/sourcify/sources:verify", json({})),
    post(`/sourcify/v2/verify/${CHAIN_ID}/${a.coin}`, json({})),
    post(`/sourcify/v2/verify/1/${a.coin}`, json({})),
    post(`/sourcify/v2/verify/${CHAIN_ID}/0x123`, json({})),
    post(`/api/v2/smart-contracts/${a.multi}/verification/via/unknown-method`, json({})),
    post(`/api/v2/smart-contracts/${a.multi}/verification/via/flattened-code`, json({})),
    post(`/api/v2/smart-contracts/0x123/verification/via/flattened-code`, json({})),
    post("/api", {
      body: `module=contract&action=getabi&address=${a.coin}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    }),
    post("/api", json({ module: "contract", action: "getsourcecode", address: a.coin })),
    post("/api", {
      body: "module=contract&action=verifysourcecode",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    }),
  ];
  return out.map((r) => ({ template: "(hand-written)", ...r }));
}

// ─── HTTP: raw bytes ────────────────────────────────────────────────────────────────────────────────────────────

/**
 * One request with node:http (not fetch: fetch would decode the body and hide the framing); the path is sent as
 * written. Connection errors become status 0 answers, so they are compared like any other.
 */
function request(server, r) {
  return new Promise((resolveAnswer) => {
    const body = r.body === undefined ? undefined : Buffer.from(r.body);
    const headers = { origin: ORIGIN, ...(r.headers ?? {}) };
    if (body) headers["content-length"] = String(body.length);
    const req = http.request(
      { host: "127.0.0.1", port: server.port, method: r.method, path: r.path, headers, agent: server.agent },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolveAnswer({ status: res.statusCode, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
        );
        res.on("error", (e) =>
          resolveAnswer({ status: 0, rawHeaders: [], body: Buffer.from(`response error: ${e.message}`) }),
        );
      },
    );
    req.setTimeout(120_000, () => req.destroy(new Error("no answer within 120 s")));
    req.on("error", (e) =>
      resolveAnswer({ status: 0, rawHeaders: [], body: Buffer.from(`request error: ${e.message}`) }),
    );
    req.end(body);
  });
}

/**
 * Header lines as compared: lower-case names, sorted (order carries no meaning), volatile ones left out, and
 * content-length too when the body is normalised.
 */
function headerLines(path, a) {
  const skip = normalisationsFor(path, a.status).length
    ? [...VOLATILE_HEADERS, "content-length"]
    : VOLATILE_HEADERS;
  const lines = [];
  for (let i = 0; i < a.rawHeaders.length; i += 2) {
    const name = a.rawHeaders[i].toLowerCase();
    if (!skip.includes(name)) lines.push(`${name}: ${a.rawHeaders[i + 1]}`);
  }
  return lines.sort();
}

function normalisedBody(path, a) {
  const rules = normalisationsFor(path, a.status);
  if (!rules.length) return a.body;
  let text = a.body.toString("utf8");
  for (const n of rules) text = n.apply(text);
  return Buffer.from(text);
}

/** Same status, headers and (normalised) body. */
const sameAnswer = (path, x, y) =>
  x.status === y.status &&
  headerLines(path, x).join("\n") === headerLines(path, y).join("\n") &&
  normalisedBody(path, x).equals(normalisedBody(path, y));

// ─── difference reports ─────────────────────────────────────────────────────────────────────────────────────────

const visible = (s) =>
  s.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
const truncate = (s, n) => (s.length > n ? `${s.slice(0, n)}… (${s.length} bytes in all)` : s);

/** The first position where two byte strings differ, with its line and column. */
function firstDifference(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  if (i === n && a.length === b.length) return null;
  const before = a.subarray(0, i).toString("utf8");
  const line = before.split("\n").length;
  const column = i - before.lastIndexOf("\n");
  return { offset: i, line, column };
}

/** The JSON path of the first differing value (or key order), for answers that are JSON on both sides. */
function jsonDifference(x, y, path = "$") {
  const kind = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  if (kind(x) !== kind(y)) return `${path}: ${JSON.stringify(x)} → ${JSON.stringify(y)}`;
  if (kind(x) === "array") {
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const d = jsonDifference(x[i], y[i], `${path}[${i}]`);
      if (d) return d;
    }
    return x.length === y.length ? null : `${path}: ${x.length} items → ${y.length} items`;
  }
  if (kind(x) === "object") {
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    const missing = kx.filter((k) => !(k in y));
    const added = ky.filter((k) => !(k in x));
    if (missing.length || added.length)
      return `${path}: ${missing.length ? `members only in OLD: ${missing.join(", ")}` : ""}${missing.length && added.length ? "; " : ""}${added.length ? `members only in NEW: ${added.join(", ")}` : ""}`;
    for (const k of kx) {
      const d = jsonDifference(x[k], y[k], `${path}.${k}`);
      if (d) return d;
    }
    return kx.join() === ky.join() ? null : `${path}: same members in another order`;
  }
  return x === y ? null : `${path}: ${JSON.stringify(x)} → ${JSON.stringify(y)}`;
}

function describeDifference(r, oldAnswer, newAnswer) {
  const lines = [];
  if (oldAnswer.status !== newAnswer.status) lines.push(`status: ${oldAnswer.status} → ${newAnswer.status}`);
  const ho = headerLines(r.path, oldAnswer);
  const hn = headerLines(r.path, newAnswer);
  for (const h of ho.filter((h) => !hn.includes(h))) lines.push(`header - ${h}`);
  for (const h of hn.filter((h) => !ho.includes(h))) lines.push(`header + ${h}`);
  const bo = normalisedBody(r.path, oldAnswer);
  const bn = normalisedBody(r.path, newAnswer);
  const d = firstDifference(bo, bn);
  if (d) {
    lines.push(`body: first difference at byte ${d.offset} (line ${d.line}, column ${d.column})`);
    try {
      const jd = jsonDifference(JSON.parse(bo.toString("utf8")), JSON.parse(bn.toString("utf8")));
      lines.push(
        jd ? `JSON: ${truncate(jd, 400)}` : "JSON: the same value, serialised differently (order or spacing)",
      );
    } catch {
      // not JSON on both sides
    }
    const from = Math.max(0, d.offset - 80);
    lines.push(`@@ byte ${from} @@`);
    lines.push(`- ${visible(bo.subarray(from, d.offset + 120).toString("utf8"))}`);
    lines.push(`+ ${visible(bn.subarray(from, d.offset + 120).toString("utf8"))}`);
    lines.push(`OLD body: ${visible(truncate(bo.toString("utf8"), 600))}`);
    lines.push(`NEW body: ${visible(truncate(bn.toString("utf8"), 600))}`);
  }
  return lines;
}

function recordAnswer(dir, n, r, a) {
  const head = [
    `${r.method} ${r.path}`,
    ...(r.body !== undefined ? [`(request body) ${r.body}`] : []),
    "",
    `HTTP ${a.status}`,
    ...a.rawHeaders.flatMap((h, i) => (i % 2 ? [] : [`${h}: ${a.rawHeaders[i + 1]}`])),
    "",
    "",
  ].join("\n");
  writeFileSync(join(dir, `${String(n).padStart(4, "0")}.http`), Buffer.concat([Buffer.from(head), a.body]));
}

// ─── the run, phase by phase ────────────────────────────────────────────────────────────────────────────────────

/**
 * Phase 1: OLD's `lookout start` indexes the chain while the scenario runs and the contracts are verified; returns
 * once everything is written and the indexer is stopped, with the values the URL list is filled from.
 */
async function indexScenario({ OLD, tools, dbUrl, anvil, dataDir, runDir, t0 }) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const indexer = startLookout(
    OLD,
    "index-old",
    ["start"],
    lookoutEnv({
      DATABASE_URL: dbUrl,
      RPC_URL: anvil.url,
      PORT: String(port),
      DATA_DIR: join(dataDir, "index"),
      LOG_LEVEL: "info",
      POLL_INTERVAL_MS: "200",
    }),
    runDir,
  );
  // Compiled while the indexer starts (another process).
  log("compiling the scenario contracts…");
  const build = compileScenario(tools.solc);
  await waitForHttp(indexer, base);
  log(`OLD \`lookout start\` indexing (${elapsed(t0)}); running the scenario…`);
  // The indexed height, read from the database (asking /health would add a JSON-RPC call per poll).
  const progress = new tools.pg.Client({ connectionString: dbUrl });
  await progress.connect();
  const indexed = (block) =>
    waitUntil(
      `the indexer to write block ${block}`,
      async () => {
        if (!indexer.running()) throw new SetupError(`index-old exited:\n${tail(indexer.logPath)}`);
        const { rows } = await progress.query("select last_block from indexer_state where id = 1");
        return rows.length > 0 && rows[0].last_block !== null && Number(rows[0].last_block) >= block;
      },
      { intervalMs: 25 },
    );
  let chain;
  let verification;
  let coinCopy;
  try {
    chain = await runChainActivity(anvil.url, tools.viem, build, indexed);
    // Verification reads the contracts' creations from the index: it must be complete first.
    await waitSettled(base, anvil.url, tools.pg, dbUrl);
    log(`scenario mined and indexed (${elapsed(t0)}); verifying contracts…`);
    verification = await verifyContracts(base, chain, build.compiler);
    coinCopy = await chain.afterVerification();
  } finally {
    await progress.end();
  }
  await waitSettled(base, anvil.url, tools.pg, dbUrl);
  await indexer.stop(20_000);
  log(`index settled, indexer stopped (${elapsed(t0)})`);

  const batchBlock = await rpc(anvil.url, "eth_getBlockByNumber", [
    `0x${chain.batchBlock.toString(16)}`,
    false,
  ]);
  const block1 = await rpc(anvil.url, "eth_getBlockByNumber", ["0x1", false]);
  const coinCreation = await rpc(anvil.url, "eth_getTransactionByHash", [chain.creationTx.coin]);
  return {
    ...chain,
    addr: { ...chain.addr, coinCopy },
    head: Number(await rpc(anvil.url, "eth_blockNumber")),
    batchBlockHash: batchBlock.hash,
    miner: tools.viem.getAddress(block1.miner),
    guids: verification.guids,
    verificationId: verification.verificationId,
    compiler: build.compiler,
    code: {
      coinCreation: coinCreation.input,
      coinRuntime: await rpc(anvil.url, "eth_getCode", [chain.addr.coin, "latest"]),
      hybridRuntime: await rpc(anvil.url, "eth_getCode", [chain.addr.hybrid, "latest"]),
    },
  };
}

/**
 * Phase 2: `lookout serve --no-jobs` of OLD and of NEW on the same database and RPC, each with its own copy of the
 * compiler cache the indexer left (the solc-js version probes), so neither spends a minute probing again.
 */
async function startServers({ OLD, NEW, oldEnv, newEnv, dbUrl, anvil, dataDir, runDir }) {
  const servers = {};
  for (const [side, co, extra] of [
    ["old", OLD, oldEnv],
    ["new", NEW, newEnv],
  ]) {
    const port = await freePort();
    const dir = join(dataDir, `serve-${side}`);
    await cp(join(dataDir, "index", "compilers"), join(dir, "compilers"), { recursive: true }).catch(
      () => {},
    );
    const p = startLookout(
      co,
      `serve-${side}`,
      // NEW may bring migrations OLD lacks (new counters, indexes): it applies them; OLD's schema check passes.
      ["serve", "--no-jobs", ...(side === "new" ? ["--migrate"] : [])],
      lookoutEnv({
        DATABASE_URL: dbUrl,
        RPC_URL: anvil.url,
        PORT: String(port),
        DATA_DIR: dir,
        LOG_LEVEL: "warn",
        JOBS: "false",
        ...extra,
      }),
      runDir,
    );
    // One connection per server, kept alive: requests are asked one pair at a time anyway.
    servers[side] = { process: p, port, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) };
  }
  await Promise.all(Object.values(servers).map((s) => waitForHttp(s.process, `http://127.0.0.1:${s.port}`)));
  return servers;
}

/** Requests per resource group (`/api/v2/addresses`, `/sourcify`, …), for the summary. */
function groupOf(path) {
  const parts = routeOf(path).split("/").filter(Boolean);
  const depth = parts[0] === "api" && /^v\d$/.test(parts[1] ?? "") ? 3 : parts[0] === "api" ? 2 : 1;
  return `/${parts.slice(0, depth).join("/")}`;
}

/**
 * Phase 3: asks both servers every request of `queue` (pages found on the way are asked right after their list),
 * records both answers and prints the verdict of each.
 */
async function compareAll({ servers, queue, runDir, maxPages, quiet }) {
  const dirs = { old: join(runDir, "old"), new: join(runDir, "new") };
  mkdirSync(dirs.old);
  mkdirSync(dirs.new);
  const index = createWriteStream(join(runDir, "requests.tsv"));
  index.write("n\tverdict\told status\tnew status\tmethod\tpath\n");
  const report = createWriteStream(join(runDir, "differences.txt"));
  const stats = { n: 0, identical: 0, different: 0, serverErrors: 0, groups: new Map(), openapi: null };
  const seen = new Set();
  const followed = new Map();
  while (queue.length) {
    const r = queue.shift();
    const key = `${r.method} ${r.path} ${r.body ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const n = ++stats.n;
    stats.groups.set(groupOf(r.path), (stats.groups.get(groupOf(r.path)) ?? 0) + 1);
    // Both at the same moment: anything that depends on the clock sees the same clock.
    const [oldA, newA] = await Promise.all([request(servers.old, r), request(servers.new, r)]);
    recordAnswer(dirs.old, n, r, oldA);
    recordAnswer(dirs.new, n, r, newA);
    const same = sameAnswer(r.path, oldA, newA);
    if (oldA.status >= 500 || oldA.status === 0) stats.serverErrors++;
    const label = `${r.method} ${r.path}${r.body !== undefined ? `  body ${truncate(r.body, 120)}` : ""}`;
    index.write(
      `${n}\t${same ? "identical" : "DIFFERENT"}\t${oldA.status}\t${newA.status}\t${r.method}\t${r.path}\n`,
    );
    if (same) {
      stats.identical++;
      if (!quiet) log(`  ok   ${oldA.status} ${label}`);
    } else {
      stats.different++;
      const details = describeDifference(r, oldA, newA);
      const text = [
        `DIFF #${n} ${oldA.status}→${newA.status} ${label}`,
        ...details.map((l) => `       ${l}`),
      ].join("\n");
      log(text);
      report.write(`${text}\n\n`);
    }
    if (r.path === "/api/docs/openapi.json") stats.openapi = { old: oldA, new: newA };

    // Follow next_page_params from OLD's answer (NEW's answer to the same page is compared all the same), a few
    // pages per list and a few lists per route.
    if (!r.follow || oldA.status !== 200) continue;
    let next = null;
    try {
      next = JSON.parse(oldA.body.toString("utf8")).next_page_params ?? null;
    } catch {
      // not JSON
    }
    const depth = r.depth ?? 0;
    const perRoute = followed.get(r.template) ?? 0;
    if (!next || typeof next !== "object" || depth >= maxPages || perRoute >= maxPages * 3) continue;
    followed.set(r.template, perRoute + 1);
    const [p, qs] = r.path.split("?");
    const query = Object.fromEntries(new URLSearchParams(qs ?? ""));
    // The list's own filters stay; the cursor's null members are left out.
    for (const [k, v] of Object.entries(next)) if (v !== null) query[k] = v;
    queue.unshift({ ...r, path: p + queryString(query), depth: depth + 1 });
  }
  await Promise.all([new Promise((r) => index.end(r)), new Promise((r) => report.end(r))]);
  return stats;
}

/** Method and path of every operation of an OpenAPI answer, parameter names left out (they may be renamed). */
function operationsOf(answer) {
  try {
    const d = JSON.parse(answer.body.toString("utf8"));
    return new Set(
      Object.entries(d.paths ?? {}).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/\{[^}]+\}/g, "{}")}`),
      ),
    );
  } catch {
    return new Set();
  }
}

/** The documented non-GET operations no hand-written request reaches (they are never asked). */
function neverAsked(skipped, handWritten) {
  return skipped.filter((op) => {
    const [method, template] = op.split(" ");
    const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
    const re = new RegExp(`^${pattern}$`);
    return !handWritten.some((r) => r.method === method && re.test(routeOf(r.path).replace(/%3A/gi, ":")));
  });
}

function parseEnvList(list, flag) {
  const env = {};
  for (const kv of list ?? []) {
    const at = kv.indexOf("=");
    if (at <= 0) throw new SetupError(`${flag} ${kv}: expected KEY=VALUE`);
    env[kv.slice(0, at)] = kv.slice(at + 1);
  }
  return env;
}

async function main() {
  const t0 = Date.now();
  let opts;
  try {
    ({ values: opts } = parseArgs({
      options: {
        old: { type: "string" },
        new: { type: "string" },
        keep: { type: "boolean" },
        quiet: { type: "boolean" },
        "old-env": { type: "string", multiple: true },
        "new-env": { type: "string", multiple: true },
        "pg-url": { type: "string" },
        "max-pages": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (e) {
    throw new SetupError(`${e.message}\n\n${USAGE}`);
  }
  if (opts.help || !opts.old || !opts.new) {
    log(USAGE);
    return opts.help ? 0 : 2;
  }
  const OLD = checkout(opts.old, "old");
  const NEW = checkout(opts.new, "new");
  const oldEnv = parseEnvList(opts["old-env"], "--old-env");
  const newEnv = parseEnvList(opts["new-env"], "--new-env");
  const pgServer = opts["pg-url"] ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const maxPages = Number(opts["max-pages"] ?? 3);
  if (!Number.isInteger(maxPages) || maxPages < 0)
    throw new SetupError("--max-pages: expected a whole number");

  // Tools from the OLD checkout's node_modules (the script has no dependencies of its own).
  const requireOld = createRequire(join(OLD.root, "package.json"));
  const tools = { pg: requireOld("pg"), solc: requireOld("solc"), viem: requireOld("viem") };

  const runDir = await mkdtemp(join(tmpdir(), "api-compare-"));
  const dataDir = join(runDir, "data");
  mkdirSync(dataDir);
  log(`api-compare: OLD ${OLD.root}  NEW ${NEW.root}`);
  log(`recording to ${runDir}`);
  if (opts.keep) log(`data folders are kept in ${dataDir}`);
  else cleanupTasks.push(() => rm(dataDir, { recursive: true, force: true }));

  const dbName = `api_compare_${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}_${process.pid}`;
  const dbUrl = await createDatabase(tools.pg, pgServer, dbName);
  if (opts.keep) log(`database ${dbName} is kept (drop it with: drop database "${dbName}")`);
  else cleanupTasks.push(() => dropDatabase(tools.pg, pgServer, dbName));
  const anvil = await startAnvil(requireOld, runDir);
  log(`chain: anvil at ${anvil.url}; database: ${dbName}`);

  const env = { OLD, NEW, oldEnv, newEnv, tools, dbUrl, anvil, dataDir, runDir, t0 };
  const fixtures = await indexScenario(env);
  const servers = await startServers(env);
  log(
    `OLD and NEW \`lookout serve --no-jobs\` on ports ${servers.old.port} and ${servers.new.port} (${elapsed(t0)})`,
  );

  // The URL list: OLD's OpenAPI document, then the hand-written requests.
  const docAnswer = await request(servers.old, { method: "GET", path: "/api/docs/openapi.json" });
  if (docAnswer.status !== 200)
    throw new SetupError(`OLD's /api/docs/openapi.json answered ${docAnswer.status}`);
  const fromDoc = requestsFromOpenApi(JSON.parse(docAnswer.body.toString("utf8")), fixtures);
  const handWritten = handWrittenRequests(fixtures);
  const queue = [...fromDoc.requests, ...handWritten];
  log(`comparing (${queue.length} requests before pagination)…\n`);

  const fingerprintBefore = await databaseFingerprint(tools.pg, dbUrl);
  const stats = await compareAll({ servers, queue, runDir, maxPages, quiet: opts.quiet });
  const fingerprintAfter = await databaseFingerprint(tools.pg, dbUrl);
  const written = Object.keys({ ...fingerprintBefore, ...fingerprintAfter }).filter(
    (t) => fingerprintBefore[t] !== fingerprintAfter[t],
  );

  // Summary.
  log(`\n${"─".repeat(100)}`);
  log(`OLD ${OLD.root} (${OLD.cli})`);
  log(`NEW ${NEW.root} (${NEW.cli})`);
  if (Object.keys(oldEnv).length) log(`OLD's extra environment: ${JSON.stringify(oldEnv)}`);
  if (Object.keys(newEnv).length) log(`NEW's extra environment: ${JSON.stringify(newEnv)}`);
  log(
    `Compared: status, body bytes, every response header except ${VOLATILE_HEADERS.join(", ")}. ` +
      "Normalised (both sides, nothing else):",
  );
  for (const x of NORMALISATIONS) log(`  - ${x.what}`);
  // Documented writes are asked only with bodies they refuse, or read-only ones: a write would make the second
  // server's answer depend on the first one's request.
  const unasked = neverAsked(fromDoc.skipped, handWritten);
  log(
    `Documented non-GET operations (${fromDoc.skipped.length}) get only the hand-written read-only or refused ` +
      `bodies; never asked (they write): ${unasked.join("; ") || "none"}`,
  );
  if (stats.openapi) {
    const opsOld = operationsOf(stats.openapi.old);
    const opsNew = operationsOf(stats.openapi.new);
    const onlyOld = [...opsOld].filter((o) => !opsNew.has(o));
    const onlyNew = [...opsNew].filter((o) => !opsOld.has(o));
    if (onlyOld.length) log(`Operations only in OLD's OpenAPI document: ${onlyOld.join("; ")}`);
    if (onlyNew.length)
      log(`Operations only in NEW's OpenAPI document (not requested): ${onlyNew.join("; ")}`);
  }
  if (stats.serverErrors)
    log(`Note: ${stats.serverErrors} of OLD's answers were 5xx or no answer at all; see requests.tsv.`);
  log(
    written.length
      ? `WARNING: the database changed while the requests ran (tables: ${written.join(", ")}): some request wrote.`
      : "Database unchanged by the requests (every table's rows hashed before and after).",
  );
  const groups = [...stats.groups].sort((a, b) => b[1] - a[1]).map(([g, c]) => `${g} ${c}`);
  log(`Requests by group: ${groups.join(", ")}`);
  log(
    `Recording: ${runDir} (old/ and new/: one .http file per request; requests.tsv; differences.txt; logs)`,
  );
  log(`Time: ${elapsed(t0)}`);
  log(`${stats.n} requests, ${stats.identical} identical, ${stats.different} different`);
  return stats.different > 0 ? 1 : 0;
}

main()
  .then(
    (code) => code,
    (e) => {
      if (!interrupted)
        log(`\napi-compare: ${e instanceof SetupError ? e.message : (e?.stack ?? String(e))}`);
      return 2;
    },
  )
  .then(async (code) => {
    await cleanup();
    process.exit(interrupted ?? code);
  });
