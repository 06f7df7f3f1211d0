import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import type { Db, Queryable } from "../../src/db/db.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

/**
 * Every filter and sort order of the explorer's lists is served by an index: the statements the routes really run
 * (recorded from a wrapped database) are explained on a data set large enough for the planner to prefer a
 * sequential scan wherever no index serves them, and no plan may scan a list's table sequentially. Runs on PGlite,
 * or on PostgreSQL with TEST_DATABASE_URL.
 */

const BLOCKS = 6000;
const PER_BLOCK = 20;
const BUSY = "0000000000000000000000000000000000000001";
const TX = `0x${"ab".repeat(32)}`;

/** Synthetic rows: 120,000 transactions of every type over 2,000 addresses, tokens, balances, call frames. */
const DATA = `
  create temporary table n_tx as
    select n, i, (n * ${PER_BLOCK} + i) as k from generate_series(0, ${BLOCKS - 1}) n, generate_series(0, ${PER_BLOCK - 1}) i;
  insert into blocks (number, hash, parent_hash, timestamp, miner, gas_used, gas_limit, transaction_count,
    base_fee_per_gas, internal_transactions_indexed)
  select n, sha256(int8send(n)), sha256(int8send(n - 1)), to_timestamp(1700000000 + n * 2), '\\x00', 0, 30000000,
    ${PER_BLOCK}, 7, true from generate_series(0, ${BLOCKS - 1}) n;
  insert into transactions (hash, block_number, index, from_address, to_address, value, nonce, gas, gas_price,
    type, input, status, gas_used, cumulative_gas_used, effective_gas_price, contract_address,
    has_token_transfers, to_is_contract, creates_token)
  select case when k = 777 then '\\x${TX.slice(2)}'::bytea else sha256(int8send(k)) end, n, i,
    decode(lpad(to_hex(case when k % 10 = 0 then 1 else 2 + k % 2000 end), 40, '0'), 'hex'),
    case when k % 101 = 0 then null else decode(lpad(to_hex(case when k % 7 = 0 then 1 else 2 + (k * 13) % 2000 end), 40, '0'), 'hex') end,
    case when k % 5 < 2 then (k % 1000) * 1000 else 0 end, k, 100000, 1 + k % 50,
    case when k % 211 = 0 then 3 else 2 end,
    case when k % 3 = 0 then '\\x'::bytea else decode(lpad(to_hex(k % 40), 8, '0') || 'aa', 'hex') end,
    1, 21000 + k % 5000, 0, 1 + k % 50,
    case when k % 101 = 0 then sha256(int8send(-k)) end,
    k % 4 = 0, k % 101 <> 0 and k % 3 <> 0, k % 10100 = 0
  from n_tx;
  insert into contract_creations (block_number, transaction_index, creation_index, address, creator,
    transaction_hash, kind, init_code)
  select block_number, index, 0, contract_address, from_address, hash, 'transaction', '\\x00'
  from transactions where contract_address is not null;
  insert into internal_transactions (block_number, transaction_index, index, transaction_hash, type, call_type,
    from_address, to_address, value, trace_address, block_hash)
  select n, i, f, sha256(int8send(k)), 'call', 'call', '\\x01', '\\x02', 0, '{}', sha256(int8send(n))
  from n_tx, generate_series(0, 1) f where n % 4 = 0;
  insert into tokens (address, type, name, holders_count, first_block)
  select decode(lpad(to_hex(100000 + x), 40, '0'), 'hex'), 'ERC-20', case when x % 9 = 0 then null else 'T' || x end,
    x % 300, 0 from generate_series(1, 20000) x;
  insert into address_counters (address, transactions_count)
  select decode(lpad(to_hex(x), 40, '0'), 'hex'), x % 977 from generate_series(1, 30000) x;
  insert into address_coin_balances (address, value, block_number)
  select decode(lpad(to_hex(x), 40, '0'), 'hex'), (x * 7919) % 100000, 1 from generate_series(1, 30000) x;
  insert into logs (block_number, log_index, transaction_hash, transaction_index, address, data)
  select n, i, sha256(int8send(k)), i, '\\x01', '\\x' from n_tx;
  analyze;`;

/** A database whose statements are recorded (with their parameters) as the routes run them. */
function recording(db: Db, seen: Array<{ sql: string; params: readonly unknown[] }>): Db {
  const record = (q: Queryable): Queryable => ({
    query: (sql, params, options) => {
      seen.push({ sql, params: params ?? [] });
      return q.query(sql, params, options);
    },
    exec: (sql) => q.exec(sql),
  });
  return {
    kind: db.kind,
    ...record(db),
    transaction: (fn) => db.transaction((tx) => fn(record(tx))),
    close: () => db.close(),
  };
}

/** Tables that grow with the chain: none may be read whole. */
const GROWING = [
  "transactions",
  "internal_transactions",
  "logs",
  "tokens",
  "address_coin_balances",
  "address_counters",
  "blocks",
  "contract_creations",
];

describe("list filters and sorts are served by indexes", () => {
  let t: TestDb;
  let app: App;
  const seen: Array<{ sql: string; params: readonly unknown[] }> = [];

  beforeAll(async () => {
    t = await createTestDb();
    await t.db.exec(DATA);
    app = await buildApp({ db: recording(t.db, seen), config: { bodyLimit: 1e6 }, logger: false });
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  /** The plans of the statements a request runs that read `table` (other statements: address objects, heads). */
  async function plans(url: string, table: RegExp): Promise<string[]> {
    seen.length = 0;
    const r = await app.inject({ url });
    expect(r.statusCode, `${url}: ${r.body}`).toBe(200);
    const out: string[] = [];
    for (const s of seen.filter((x) => table.test(x.sql))) {
      const rows = await t.db.query<Record<string, string>>(`explain ${s.sql}`, s.params);
      out.push(rows.map((x) => Object.values(x)[0]).join("\n"));
    }
    expect(out.length, url).toBeGreaterThan(0);
    return out;
  }

  const noSeqScan = (url: string, plan: string) => {
    for (const table of GROWING)
      expect(plan, `${url}\n${plan}`).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
  };

  const busy = `0x${BUSY}`;
  const cursors = {
    tx: "block_number=3000&index=5",
    value: "block_number=3000&index=5&value=1000&fee=21007",
    fee: "block_number=3000&index=5&value=1000&fee=21007",
  };

  /** The index a type's scan reads (migration 100). */
  const TYPE_INDEX: Record<string, string> = {
    token_transfer: "transactions_token_transfer_idx",
    contract_creation: "transactions_contract_creation_idx",
    contract_call: "transactions_contract_call_idx",
    coin_transfer: "transactions_coin_transfer_idx",
    token_creation: "transactions_token_creation_idx",
    blob_transaction: "transactions_blob_idx",
  };
  /** A plan reads `index` (in order, or as a bitmap of its few matching rows). */
  const reads = (index: string) =>
    new RegExp(`(Index (Only )?Scan (Backward )?using|Bitmap Index Scan on) ${index} `);

  it("transactions?type=&method=: a range scan of an index per type or selector", async () => {
    const cases: Array<[string, string[]]> = [
      ...[
        ...Object.keys(TYPE_INDEX).map((k) => [k]),
        ["token_transfer", "contract_creation", "coin_transfer"],
      ].flatMap((types) =>
        [`type=${types.join(",")}`, `type=${types.join(",")}&${cursors.tx}`].map((q): [string, string[]] => [
          q,
          types.map((k) => TYPE_INDEX[k]!),
        ]),
      ),
      ["method=0x00000007", ["transactions_method_idx"]],
      [`method=approve,0x00000009&type=coin_transfer&${cursors.tx}`, ["transactions_method_idx"]],
      ["filter=validated&type=contract_call&method=0x00000003", ["transactions_method_idx"]],
    ];
    for (const [query, indexes] of cases) {
      const url = `/api/v2/transactions?${query}`;
      const [plan, ...more] = await plans(url, /from transactions t where/);
      expect(more, url).toEqual([]);
      noSeqScan(url, plan!);
      for (const index of indexes) expect(plan, url).toMatch(reads(index));
    }
  });

  it("addresses/{h}/transactions?sort=&order=: the address's indexes, however deep the cursor", async () => {
    for (const sort of ["value", "fee", "block_number"])
      for (const order of ["asc", "desc"])
        for (const filter of [null, "to", "from"])
          for (const cursor of ["", sort === "block_number" ? cursors.tx : cursors.value]) {
            const url = `/api/v2/addresses/${busy}/transactions?sort=${sort}&order=${order}${filter ? `&filter=${filter}` : ""}${cursor ? `&${cursor}` : ""}`;
            const [plan, ...more] = await plans(
              url,
              /from transactions t\s+where t\.(from|to)_address = \$1/,
            );
            expect(more, url).toEqual([]);
            noSeqScan(url, plan!);
            // Each side from its index on the sort key (block_number: the list's own indexes).
            const key = sort === "block_number" ? "" : `${sort}_`;
            for (const side of filter ? [filter] : ["from", "to"])
              expect(plan, url).toMatch(reads(`transactions_${side}_${key}idx`));
            // Never every transaction of the address sorted: the order comes from the index.
            expect(plan, url).not.toMatch(/Sort Key: (t\.value|COALESCE)/);
          }
  });

  it("internal-transactions?transaction_hash=: the transaction's frames by index", async () => {
    const url = `/api/v2/internal-transactions?transaction_hash=${TX}&index=0`;
    for (const plan of await plans(url, /from internal_transactions i/)) {
      noSeqScan(url, plan);
      expect(plan).toMatch(/internal_transactions_transaction_idx/);
    }
  });

  it("tokens?sort=&order= and addresses?sort=&order=: one index range scan each", async () => {
    const tokenUrls = ["fiat_value", "holders_count", "circulating_market_cap"].flatMap((sort) =>
      ["asc", "desc"].flatMap((order) => [
        `/api/v2/tokens?sort=${sort}&order=${order}`,
        `/api/v2/tokens?sort=${sort}&order=${order}&holders_count=150&name=T333&is_name_null=false&contract_address_hash=0x${"00".repeat(19)}01`,
      ]),
    );
    for (const url of tokenUrls)
      for (const plan of await plans(url, /from tokens t/)) {
        noSeqScan(url, plan);
        // Holders ascending has its own index; the other sorts are the default order (fiat value and market cap
        // are null here).
        const asc = url.includes("sort=holders_count&order=asc");
        expect(plan, url).toMatch(reads(asc ? "tokens_list_holders_asc_idx" : "tokens_list_idx"));
        expect(plan, url).not.toMatch(/Sort Key/);
      }
    const addressListUrls = ["balance", "transactions_count"].flatMap((sort) =>
      ["asc", "desc"].flatMap((order) => [
        `/api/v2/addresses?sort=${sort}&order=${order}`,
        `/api/v2/addresses?sort=${sort}&order=${order}&fetched_coin_balance=5000&hash=0x${"00".repeat(19)}10&transactions_count=300`,
      ]),
    );
    const ADDRESS_INDEX: Record<string, string> = {
      "balance&order=desc": "address_coin_balances_value_desc_idx",
      "balance&order=asc": "address_coin_balances_value_asc_idx",
      // Migration 153: the count is address_counters' alone, read from its index (backward for ascending).
      "transactions_count&order=asc": "address_counters_transactions_idx",
      "transactions_count&order=desc": "address_counters_transactions_idx",
    };
    for (const url of addressListUrls)
      for (const plan of await plans(url, /from address_(coin_balances b|counters n join)/)) {
        noSeqScan(url, plan);
        const order = Object.keys(ADDRESS_INDEX).find((k) => `${url}&`.includes(`sort=${k}&`))!;
        expect(plan, url).toMatch(reads(ADDRESS_INDEX[order]!));
        // The cursor is where the scan starts, not a filter along it.
        if (url.includes("hash=")) expect(plan, url).toMatch(/Index Cond: \(ROW\(/);
        expect(plan, url).not.toMatch(/Sort Key/);
      }
  });
});
