import { readFileSync } from "node:fs";
import { ClientError, GraphQLClient } from "graphql-request";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../src/app/http-app.js";
import type { Queryable } from "../../src/db/db.js";
import { createPostgresDb } from "../../src/db/pg.js";
import { currentBalancesExtension } from "../../src/indexer/stages/balances/current-balances.js";
import { coinBalanceExtension } from "../../src/indexer/stages/balances/extension.js";
import { packagePath } from "../../src/util/package-root.js";
import type { CompilerRegistry } from "../../src/verifier/compilers/index.js";
import { type ActivityContracts, deployActivityContracts, mineActivity, rpc } from "../helpers/activity.js";
import { startTestChain, type TestChain } from "../helpers/anvil.js";
import { createTestDb, type TestDb } from "../helpers/db.js";
import { explorerExtensions } from "../helpers/explorer-index.js";
import { createTestIndexer, indexToHead } from "../helpers/indexer.js";
import { solcModule } from "../helpers/solc.js";
import { deploy, invoke } from "../helpers/tokens.js";
import { buildVerifierApp, offlineVerifierCompilers } from "../helpers/verify.js";
import { standardJsonText, versionFor } from "../helpers/verify-contracts.js";

const lower = (a: string) => a.toLowerCase();
const upperOrNull = (s: string | null) => (s === null ? null : s.toUpperCase());

describe("GraphQL API (/api/v1/graphql): Blockscout's schema answered from the index, against /api/v2", () => {
  let chain: TestChain;
  let t: TestDb;
  let app: App;
  let compilers: CompilerRegistry;
  let k: ActivityContracts;
  let client: GraphQLClient;
  let base: string;
  let a0: Address;
  let multi: Address;
  let batchTx: Hex;

  const rest = async (url: string) => {
    const r = await app.inject({ url });
    expect(r.statusCode, url).toBe(200);
    return r.json() as any;
  };
  /** Every item of a /api/v2 list, following next_page_params. */
  const restAll = async (path: string) => {
    const items: any[] = [];
    let params: Record<string, unknown> | null = null;
    for (let i = 0; i < 100; i++) {
      const qs = new URLSearchParams(
        Object.entries(params ?? {}).map(([a, b]): [string, string] => [a, String(b)]),
      );
      const body = await rest(qs.size ? `${path}?${qs}` : path);
      items.push(...body.items);
      params = body.next_page_params;
      if (!params) return items;
    }
    throw new Error("no last page");
  };
  const post = async (query: string, variables?: unknown, url = "/api/v1/graphql") => {
    const r = await app.inject({ method: "POST", url, payload: { query, variables } });
    return { status: r.statusCode, body: r.json() as any };
  };

  beforeAll(async () => {
    chain = await startTestChain();
    const url = chain.anvil.url;
    a0 = lower(chain.accounts[0]!.address) as Address;
    t = await createTestDb();
    compilers = await offlineVerifierCompilers();
    app = await buildVerifierApp(t.db, chain, compilers);
    k = await deployActivityContracts(url);
    await mineActivity(url, k, { blocks: 30, txPerBlock: 5, seed: 7 });
    await rpc(url, "evm_setAutomine", [true]);
    const nft = await deploy(url, a0, "TestNft", ["Alpha", "A", ""]);
    await invoke(url, a0, nft, "TestNft", "mintMany", [a0, 7n, 3n]);
    multi = await deploy(url, a0, "Test1155", ["ipfs://x/{id}"]);
    await invoke(url, a0, multi, "Test1155", "mint", [a0, 1n, 5n]);
    batchTx = await invoke(url, a0, multi, "Test1155", "mintBatch", [a0, [2n, 3n, 4n], [20n, 30n, 40n]]);
    const indexer = await createTestIndexer(t.db, url, {
      extensions: [coinBalanceExtension(), currentBalancesExtension(), ...explorerExtensions()],
    });
    await indexToHead(indexer, t.db, url);
    const version = versionFor(compilers, solcModule().version().split("+")[0]!);
    const v = await app.inject({
      method: "POST",
      url: "/api/v1/solidity/sources:verify-standard-json",
      payload: {
        contracts: [{ chainId: String(chain.anvil.chainId), address: k.token }],
        compiler: version,
        input: standardJsonText(
          { "Activity.sol": readFileSync(packagePath("test/contracts/Activity.sol"), "utf8") },
          { optimizer: { enabled: true, runs: 200 } },
        ),
      },
    });
    expect(v.json().contractVerificationResults.items[0].status).toBe("FULLY_VERIFIED");
    base = await app.listen({ port: 0, host: "127.0.0.1" });
    client = new GraphQLClient(`${base}/api/v1/graphql`);
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    await compilers?.close();
    await t?.drop();
    await chain?.stop();
  });

  it("a GraphQL client reads an address; balance, counters, nonce and code equal /api/v2's and the node's", async () => {
    const q = `query ($hash: AddressHash!) { address(hash: $hash) {
      hash fetchedCoinBalance fetchedCoinBalanceBlockNumber transactionsCount tokenTransfersCount gasUsed nonce
      contractCode smartContract { name } } }`;
    const { address } = await client.request<any>(q, { hash: chain.accounts[0]!.address });
    const r = await rest(`/api/v2/addresses/${a0}`);
    const counters = await rest(`/api/v2/addresses/${a0}/counters`);
    expect(address).toEqual({
      hash: a0,
      fetchedCoinBalance: r.coin_balance,
      fetchedCoinBalanceBlockNumber: r.block_number_balance_updated_at,
      transactionsCount: Number(counters.transactions_count),
      tokenTransfersCount: Number(counters.token_transfers_count),
      gasUsed: Number(counters.gas_usage_count),
      nonce: Number(await rpc<Hex>(chain.anvil.url, "eth_getTransactionCount", [a0, "latest"])) - 1,
      contractCode: null,
      smartContract: null,
    });
    expect(BigInt(address.fetchedCoinBalance)).toBe(
      BigInt(await rpc<Hex>(chain.anvil.url, "eth_getBalance", [a0, "latest"])),
    );
    // A contract: its code and the verified contract as /api/v2/smart-contracts shows it.
    const { address: token } = await client.request<any>(
      `{ address(hash: "${k.token}") { contractCode smartContract { name compilerVersion optimization
         optimizationRuns contractSourceCode abi addressHash evmVersion filePath language partiallyVerified
         verifiedViaSourcify verifiedViaEthBytecodeDb isChangedBytecode compilerSettings externalLibraries
         constructorArguments } } }`,
    );
    const sc = await rest(`/api/v2/smart-contracts/${k.token}`);
    expect(token.contractCode).toBe(sc.deployed_bytecode);
    expect(token.smartContract).toEqual({
      name: sc.name,
      compilerVersion: sc.compiler_version,
      optimization: sc.optimization_enabled,
      optimizationRuns: sc.optimization_runs,
      contractSourceCode: sc.source_code,
      abi: JSON.stringify(sc.abi),
      addressHash: lower(k.token),
      evmVersion: sc.evm_version,
      filePath: sc.file_path,
      language: sc.language.toUpperCase(),
      partiallyVerified: sc.is_partially_verified,
      verifiedViaSourcify: false,
      verifiedViaEthBytecodeDb: sc.is_verified_via_eth_bytecode_db,
      isChangedBytecode: false,
      compilerSettings: JSON.stringify(sc.compiler_settings),
      externalLibraries: JSON.stringify(sc.external_libraries),
      constructorArguments: sc.constructor_args,
    });
  });

  it("a transaction and its block equal /api/v2's", async () => {
    const list = await rest(`/api/v2/addresses/${a0}/transactions`);
    for (const item of list.items.slice(0, 5)) {
      const tx = await rest(`/api/v2/transactions/${item.hash}`);
      const { transaction: g } = await client.request<any>(
        `query ($h: FullHash!) { transaction(hash: $h) { hash blockNumber blockHash index gas gasUsed gasPrice value
           nonce status type input maxFeePerGas maxPriorityFeePerGas fromAddressHash toAddressHash
           createdContractAddressHash error revertReason hasErrorInInternalTransactions cumulativeGasUsed
           block { hash number parentHash minerHash gasUsed gasLimit baseFeePerGas size timestamp difficulty
             totalDifficulty nonce isEmpty consensus } } }`,
        { h: item.hash },
      );
      expect(g).toMatchObject({
        hash: tx.hash,
        blockNumber: tx.block_number,
        index: tx.position,
        gas: tx.gas_limit,
        gasUsed: tx.gas_used,
        gasPrice: tx.gas_price,
        value: tx.value,
        nonce: String(tx.nonce),
        status: upperOrNull(tx.status),
        type: tx.type,
        input: tx.raw_input,
        maxFeePerGas: tx.max_fee_per_gas,
        maxPriorityFeePerGas: tx.max_priority_fee_per_gas,
        fromAddressHash: lower(tx.from.hash),
        toAddressHash: tx.to ? lower(tx.to.hash) : null,
        createdContractAddressHash: tx.created_contract ? lower(tx.created_contract.hash) : null,
        error: tx.status === "error" ? tx.result : null,
        hasErrorInInternalTransactions: tx.has_error_in_internal_transactions,
      });
      const receipt = await rpc<{ cumulativeGasUsed: Hex }>(chain.anvil.url, "eth_getTransactionReceipt", [
        item.hash,
      ]);
      expect(g.cumulativeGasUsed).toBe(BigInt(receipt.cumulativeGasUsed).toString());
      const b = await rest(`/api/v2/blocks/${tx.block_number}`);
      expect(g.blockHash).toBe(b.hash);
      expect(g.block).toEqual({
        hash: b.hash,
        number: b.height,
        parentHash: b.parent_hash,
        minerHash: lower(b.miner.hash),
        gasUsed: b.gas_used,
        gasLimit: b.gas_limit,
        baseFeePerGas: b.base_fee_per_gas,
        size: b.size,
        timestamp: b.timestamp,
        difficulty: b.difficulty,
        totalDifficulty: b.total_difficulty,
        nonce: b.nonce,
        isEmpty: b.transactions_count === 0,
        consensus: true,
      });
    }
    const missing = await post(`{ transaction(hash: "0x${"ab".repeat(32)}") { hash } }`);
    expect(missing).toEqual({
      status: 200,
      body: {
        data: { transaction: null },
        errors: [expect.objectContaining({ message: "Transaction not found.", path: ["transaction"] })],
      },
    });
    const block = await post("{ block(number: 100000) { hash } }");
    expect(block.body.errors[0].message).toBe("Block number 100000 was not found.");
  });

  it("pages an address's transactions forward and backward (Relay cursors) as /api/v2 lists them", async () => {
    const all = (await restAll(`/api/v2/addresses/${a0}/transactions`)).map((i) => i.hash);
    expect(all.length).toBeGreaterThan(20);
    const page = `query ($h: AddressHash!, $first: Int, $after: String, $last: Int, $before: String) {
      address(hash: $h) { transactions(first: $first, after: $after, last: $last, before: $before) {
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { hash } } } } }`;
    const forward: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 100; i++) {
      const r: any = await client.request(page, { h: a0, first: 9, after });
      const c = r.address.transactions;
      forward.push(...c.edges.map((e: any) => e.node.hash));
      expect(c.pageInfo.hasPreviousPage).toBe(after !== null);
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(forward).toEqual(all);
    const backward: string[] = [];
    let before: string | null = null;
    for (let i = 0; i < 100; i++) {
      const r: any = await client.request(page, { h: a0, last: 7, before });
      const c = r.address.transactions;
      backward.unshift(...c.edges.map((e: any) => e.node.hash));
      if (!c.pageInfo.hasPreviousPage) break;
      before = c.pageInfo.startCursor;
    }
    expect(backward).toEqual(all);
    // order: ASC (Blockscout's argument) is the same list oldest first.
    const asc: any = await client.request(
      `{ address(hash: "${a0}") { transactions(first: 5, order: ASC) { edges { node { hash } } } } }`,
    );
    expect(asc.address.transactions.edges.map((e: any) => e.node.hash)).toEqual(all.slice(-5).reverse());
    const bad = await post(
      `{ address(hash: "${a0}") { transactions(first: 2, after: "nope") { edges { cursor } } } }`,
    );
    expect(bad.status).toBe(200);
    expect(bad.body.errors[0].message).toMatch(/^Invalid cursor/);
  });

  it("token transfers: a token's list paged by log equals /api/v2/tokens/{h}/transfers; an ERC-1155 batch is one node", async () => {
    const restItems = await restAll(`/api/v2/tokens/${k.token}/transfers`);
    const expected = restItems.map((i) => [
      i.transaction_hash,
      i.log_index,
      lower(i.from.hash),
      lower(i.to.hash),
      i.total.value,
    ]);
    const got: unknown[] = [];
    let after: string | null = null;
    for (let i = 0; i < 100; i++) {
      const r: any = await client.request(
        // Within Blockscout's complexity 100: 8 × (edges 1 + node 1 + 7 fields) + pageInfo 3 = 96.
        `query ($t: AddressHash!, $after: String) { tokenTransfers(tokenContractAddressHash: $t, first: 8, after: $after) {
           pageInfo { hasNextPage endCursor } edges { node { transactionHash logIndex fromAddressHash toAddressHash
           amount amounts tokenIds } } } }`,
        { t: k.token, after },
      );
      const c = r.tokenTransfers;
      for (const { node: n } of c.edges) {
        got.push([n.transactionHash, n.logIndex, n.fromAddressHash, n.toAddressHash, n.amount]);
        expect(n).toMatchObject({ amounts: null, tokenIds: null });
      }
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(got).toEqual(expected);
    const tokenRest = await rest(`/api/v2/tokens/${k.token}`);
    const first: any = await client.request(
      `{ tokenTransfers(tokenContractAddressHash: "${k.token}", first: 1) { edges { node { token {
         type symbol name decimals totalSupply holderCount contractAddressHash } } } } }`,
    );
    expect(first.tokenTransfers.edges[0].node.token).toEqual({
      type: tokenRest.type,
      symbol: tokenRest.symbol,
      name: tokenRest.name,
      decimals: tokenRest.decimals,
      totalSupply: tokenRest.total_supply,
      holderCount: Number(tokenRest.holders_count),
      contractAddressHash: lower(k.token),
    });
    // ERC-1155: TransferSingle has amount and one id; TransferBatch ids and amounts, one node per log.
    const m: any = await client.request(
      `{ address(hash: "${a0}") { tokenTransfers(first: 2) { edges { node { transactionHash amount amounts tokenIds
         tokenContractAddressHash transaction { hash } } } } } }`,
    );
    const [batch, single] = m.address.tokenTransfers.edges.map((e: any) => e.node);
    expect(batch).toEqual({
      transactionHash: batchTx,
      amount: null,
      amounts: ["20", "30", "40"],
      tokenIds: ["2", "3", "4"],
      tokenContractAddressHash: lower(multi),
      transaction: { hash: batchTx },
    });
    expect(single).toMatchObject({ amount: "5", amounts: null, tokenIds: ["1"] });
  });

  it("internal transactions of a transaction equal /api/v2's; node(id) finds objects by Relay id", async () => {
    const creations = await restAll(`/api/v2/addresses/${k.factory}/internal-transactions`);
    expect(creations.length).toBeGreaterThan(0);
    const hash = creations[0].transaction_hash;
    const restList = await restAll(`/api/v2/transactions/${hash}/internal-transactions`);
    const r: any = await client.request(
      `query ($h: FullHash!) { transaction(hash: $h) { id internalTransactions(first: 5) { edges { node {
         index type fromAddressHash toAddressHash createdContractAddressHash value gas error } } } } }`,
      { h: hash },
    );
    const nodes = r.transaction.internalTransactions.edges.map((e: any) => e.node);
    expect(
      nodes.map((n: any) => [
        n.index,
        n.fromAddressHash,
        n.toAddressHash,
        n.createdContractAddressHash,
        n.value,
        n.gas,
        n.error,
      ]),
    ).toEqual(
      restList.map((i) => [
        i.index,
        lower(i.from.hash),
        i.to ? lower(i.to.hash) : null,
        i.created_contract ? lower(i.created_contract.hash) : null,
        i.value,
        i.gas_limit,
        i.error,
      ]),
    );
    const more: any = await client.request(
      `query ($h: FullHash!) { transaction(hash: $h) { internalTransactions(first: 5) { edges { node {
         id type callType init createdContractCode traceAddress transactionHash } } } } }`,
      { h: hash },
    );
    const create = more.transaction.internalTransactions.edges
      .map((e: any) => e.node)
      .find((n: any) => n.type === "CREATE");
    expect(create.init).toMatch(/^0x[0-9a-f]+$/);
    expect(create.createdContractCode).toMatch(/^0x[0-9a-f]+$/);
    expect(create.callType).toBeNull();
    expect(create.transactionHash).toBe(hash);
    expect(JSON.parse(create.traceAddress)).toBeInstanceOf(Array);
    nodes[0].id = more.transaction.internalTransactions.edges[0].node.id;
    const viaNode: any = await client.request(
      `query ($id: ID!) { node(id: $id) { id ... on Transaction { hash } } }`,
      { id: r.transaction.id },
    );
    expect(viaNode.node).toEqual({ id: r.transaction.id, hash });
    const itNode: any = await client.request(
      `query ($id: ID!) { node(id: $id) { ... on InternalTransaction { index transactionHash } } }`,
      { id: nodes[0].id },
    );
    expect(itNode.node).toEqual({ index: nodes[0].index, transactionHash: hash });
  });

  it("answers Blockscout's snake_case spelling under the names written", async () => {
    const r = await post(
      `query ($hash: AddressHash!) { address(hash: $hash) { fetched_coin_balance transactions(first: 1) {
         edges { node { block_number from_address_hash } } } } }`,
      { hash: a0 },
    );
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    expect(Object.keys(r.body.data.address)).toEqual(["fetched_coin_balance", "transactions"]);
    expect(r.body.data.address.transactions.edges[0].node).toEqual({
      block_number: expect.any(Number),
      from_address_hash: expect.stringMatching(/^0x[0-9a-f]{40}$/),
    });
    const get = await app.inject({
      url: `/api/v1/graphql?query=${encodeURIComponent(`{ block(number: 1) { gas_used } }`)}`,
    });
    expect(get.statusCode).toBe(200);
    expect(get.json().data.block.gas_used).toMatch(/^\d+$/);
  });

  it("bounds queries: complexity, depth, page size and tokens answer GraphQL errors, never a 5xx", async () => {
    const tx = (await rest(`/api/v2/addresses/${a0}/transactions`)).items[0].hash;
    // Blockscout's own example: 55 × (edges 1 + node 1 + 2 fields) = 220 > 100.
    const complex = await post(
      `query ($hash: FullHash!, $first: Int!) { transaction(hash: $hash) { internal_transactions(first: $first) {
         edges { node { index transaction_hash } } } } }`,
      { hash: tx, first: 55 },
    );
    expect(complex.status).toBe(200);
    expect(complex.body.data).toBeUndefined();
    expect(complex.body.errors.map((e: any) => e.message)).toEqual([
      "Field internal_transactions is too complex: complexity is 220 and maximum is 100",
      "Field transaction is too complex: complexity is 221 and maximum is 100",
      "Operation is too complex: complexity is 221 and maximum is 100",
    ]);
    const fine = await post(
      `query ($hash: FullHash!) { transaction(hash: $hash) { internal_transactions(first: 10) {
         edges { node { index transaction_hash } } } } }`,
      { hash: tx },
    );
    expect(fine.body.errors).toBeUndefined();
    const shallow = await buildApp({
      db: t.db,
      config: { bodyLimit: 1 << 20, graphqlMaxDepth: 5 },
      logger: false,
    });
    try {
      const deep = await shallow.inject({
        method: "POST",
        url: "/api/v1/graphql",
        payload: {
          query: `{ address(hash: "${a0}") { tokenTransfers(first: 1) { edges { node { transaction { block { hash } } } } } } }`,
        },
      });
      expect([deep.statusCode, deep.json()]).toEqual([
        200,
        { errors: [expect.objectContaining({ message: "Query is too deep: depth is 7 and maximum is 5" })] },
      ]);
    } finally {
      await shallow.close();
    }
    const wide = await post(
      `{ tokenTransfers(tokenContractAddressHash: "${k.token}", first: 101) { edges { cursor } } }`,
    );
    expect(wide.body.errors[0].message).toBe(
      'Argument "first" of Query.tokenTransfers must be from 0 to 100',
    );
    const noFirst = await post(
      `{ tokenTransfers(tokenContractAddressHash: "${k.token}") { edges { cursor } } }`,
    );
    expect(noFirst.body.errors[0].message).toBe("You must either supply `:first` or `:last`");
    const tokens = await post(`{ ${Array.from({ length: 600 }, (_, i) => `a${i}: __typename`).join(" ")} }`);
    expect(tokens.status).toBe(200);
    expect(tokens.body.errors[0].message).toMatch(/more that 1000 tokens/);
    const badHash = await post(`{ address(hash: "someInvalidHash") { hash } }`);
    expect(badHash.status).toBe(200);
    expect(badHash.body.errors[0].message).toMatch(/AddressHash/);
    const missingArg = await post("{ transaction { status } }");
    expect(missingArg.body.errors[0].message).toMatch(/argument "hash" of type "FullHash!" is required/);
    // Not a GraphQL request at all: 400 with GraphQL's error body.
    for (const [payload, message] of [
      [{}, "No query document supplied"],
      [[{ query: "{ __typename }" }, { query: "{ __typename }" }], "Max batch size is 1"],
      [{ query: "{ __typename }", variables: "{" }, "Variables are not valid JSON"],
    ] as const) {
      const r = await app.inject({ method: "POST", url: "/api/v1/graphql", payload: payload as object });
      expect([r.statusCode, r.json()]).toEqual([400, { errors: [{ message }] }]);
    }
    const notJson = await app.inject({
      method: "POST",
      url: "/api/v1/graphql",
      headers: { "content-type": "application/json" },
      payload: "{nope",
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().errors[0].message).toEqual(expect.any(String));
    const client400 = await client.request("{ nothing }").catch((e: unknown) => e);
    expect(client400).toBeInstanceOf(ClientError);
    // GraphiQL's own introspection query is neither too deep nor too complex.
    const { getIntrospectionQuery } = await import("graphql");
    const intro = await post(getIntrospectionQuery());
    expect(intro.body.errors).toBeUndefined();
    expect(intro.body.data.__schema.queryType.name).toBe("Query");
  });

  it("serves the schema in SDL at /schema.graphql, the schema the endpoint answers by", async () => {
    const r = await app.inject({ url: "/schema.graphql" });
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toMatch(/^text\/plain/);
    const { buildSchema, getIntrospectionQuery } = await import("graphql");
    const sdl = buildSchema(r.body);
    const served = (await post(getIntrospectionQuery())).body.data.__schema;
    const names = (types: Array<{ name: string }>) =>
      types
        .map((x) => x.name)
        .filter((n) => !n.startsWith("__"))
        .sort();
    expect(names(Object.values(sdl.getTypeMap()))).toEqual(names(served.types));
    expect(Object.keys(sdl.getQueryType()!.getFields()).sort()).toEqual(
      served.types
        .find((x: { name: string }) => x.name === served.queryType.name)
        .fields.map((f: { name: string }) => f.name)
        .sort(),
    );
  });

  it("serves GraphiQL at /graphiql with Blockscout's default query", async () => {
    const r = await app.inject({ url: "/graphiql" });
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toMatch(/text\/html/);
    expect(r.body).toContain('"/api/v1/graphql"');
    expect(r.body).toMatch(
      /transaction\(hash: \\"0x[0-9a-f]{64}\\"\) \{ hash, blockNumber, value, gasUsed \}/,
    );
  });

  it("reads a list of addresses with their pages in a bounded number of statements (no N+1)", async () => {
    let statements = 0;
    const counting: Queryable = {
      query: (sql, params, options) => {
        statements++;
        return t.db.query(sql, params, options);
      },
      exec: (sql) => t.db.exec(sql),
    };
    const g = await buildApp({
      db: t.db,
      graphqlDb: counting,
      config: { bodyLimit: 1 << 20, graphqlMaxComplexity: 10_000 },
      logger: false,
    });
    try {
      const run = async (hashes: string[]) => {
        statements = 0;
        const r = await g.inject({
          method: "POST",
          url: "/api/v1/graphql",
          payload: {
            query: `query ($h: [AddressHash!]!) { addresses(hashes: $h) { hash smartContract { name }
              transactions(first: 2) { edges { node { hash block { number } } } } } }`,
            variables: { h: hashes },
          },
        });
        expect(r.json().errors).toBeUndefined();
        expect(r.json().data.addresses).toHaveLength(hashes.length);
        return statements;
      };
      const few = await run(chain.accounts.slice(0, 2).map((a) => a.address));
      const many = await run(chain.accounts.slice(0, 8).map((a) => a.address));
      expect(many).toBe(few);
    } finally {
      await g.close();
    }
    const off = await buildApp({
      db: t.db,
      config: { bodyLimit: 1 << 20, graphqlEnabled: false },
      logger: false,
    });
    try {
      expect((await off.inject({ method: "POST", url: "/api/v1/graphql", payload: {} })).statusCode).toBe(
        404,
      );
      expect((await off.inject({ url: "/graphiql" })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "a read past the statement timeout answers a GraphQL error, not a 5xx (PostgreSQL)",
    async () => {
      const timed = await createPostgresDb(t.url!, { statementTimeoutMs: 300 });
      const g = await buildApp({ db: t.db, graphqlDb: timed, config: { bodyLimit: 1 << 20 }, logger: false });
      const locker = await createPostgresDb(t.url!);
      let release: () => void = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      let locked: () => void = () => {};
      const isLocked = new Promise<void>((r) => {
        locked = r;
      });
      const holder = locker.transaction(async (tx) => {
        await tx.query("lock table blocks in access exclusive mode");
        locked();
        await held;
      });
      try {
        await isLocked;
        const r = await g.inject({
          method: "POST",
          url: "/api/v1/graphql",
          payload: { query: "{ block(number: 1) { hash } }" },
        });
        expect(r.statusCode).toBe(200);
        expect(r.json()).toEqual({
          data: { block: null },
          errors: [expect.objectContaining({ message: "The database did not answer in time; please retry" })],
        });
      } finally {
        release();
        await holder;
        await g.close();
        await timed.close();
        await locker.close();
      }
    },
  );
});
