import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pendingMigrations } from "../../src/db/migrate.js";
import { type RpcWorld, startRpcWorld } from "../rpc-api/setup.js";

/**
 * The /api/v2 routes Blockscout serves on a plain chain that were missing, against a real indexed anvil chain:
 * each answers Blockscout's members and statuses (checked against its controllers and views at 86092e0).
 */
describe("Blockscout's remaining /api/v2 routes", () => {
  let w: RpcWorld;
  const get = async (url: string, method: "GET" | "POST" = "GET") => {
    const r = await w.app.inject({ method, url });
    return { status: r.statusCode, body: r.json() as any };
  };

  beforeAll(async () => {
    w = await startRpcWorld();
  }, 180_000);
  afterAll(async () => w?.stop());

  it("/transactions/{h}/fhe-operations: none on a chain without fhEVM; 404 for an unknown hash, 422 for a bad one", async () => {
    expect(await get(`/api/v2/transactions/${w.forwardTx}/fhe-operations`)).toEqual({
      status: 200,
      body: { items: [], total_hcu: 0, max_depth_hcu: 0, operation_count: 0 },
    });
    expect(await get(`/api/v2/transactions/0x${"ab".repeat(32)}/fhe-operations`)).toEqual({
      status: 404,
      body: { message: "Not found" },
    });
    expect((await get("/api/v2/transactions/0x12/fhe-operations")).status).toBe(422);
  });

  it("/transactions/{h}/preview: status, time, method and both ends as the full transaction has them", async () => {
    const full = (await get(`/api/v2/transactions/${w.forwardTx}`)).body;
    const plain = await get(`/api/v2/transactions/${w.forwardTx}/preview`);
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body)).toEqual(["status", "timestamp", "method", "from", "to"]);
    expect(plain.body).toEqual({
      status: "ok",
      timestamp: full.timestamp,
      // Not decoded unless asked: the selector of a call to a contract.
      method: "0x101e8952",
      from: { hash: full.from.hash, name: null, ens_domain_name: null, metadata: null },
      to: { hash: full.to.hash, name: full.to.name, ens_domain_name: null, metadata: null },
    });
    const reverted = await get(`/api/v2/transactions/${w.revertedTx}/preview?decode_input=true`);
    expect(reverted.body.status).toBe("error");
    expect(reverted.body.method).toBe((await get(`/api/v2/transactions/${w.revertedTx}`)).body.method);
    expect((await get(`/api/v2/transactions/0x${"cd".repeat(32)}/preview`)).status).toBe(404);
  });

  it("/blocks/{n}/countdown: blocks and seconds to a future block; 404 for a mined one, 422 for a bad number", async () => {
    const head = (await get("/api/v2/blocks")).body.items[0].height as number;
    const r = await get(`/api/v2/blocks/${head + 10}/countdown`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      current_block_number: String(head),
      countdown_block_number: String(head + 10),
      remaining_blocks_count: "10",
      estimated_time_in_seconds: expect.stringMatching(/^\d+\.\d+(e\d+)?$/),
    });
    // The same figures as the RPC action, which Blockscout computes the same way.
    const rpcAnswer = (await get(`/api?module=block&action=getblockcountdown&blockno=${head + 10}`)).body;
    expect(Number(r.body.estimated_time_in_seconds)).toBe(Number(rpcAnswer.result.EstimateTimeInSec));
    expect(await get(`/api/v2/blocks/${head}/countdown`)).toEqual({
      status: 404,
      body: { message: "Block number already mined" },
    });
    expect((await get("/api/v2/blocks/abc/countdown")).status).toBe(422);
  });

  it("/config/backend, /config/indexer, /config/public-metrics, /config/smart-contracts/languages", async () => {
    expect(await get("/api/v2/config/backend")).toEqual({
      status: 200,
      body: { chain_type: null, openapi_spec_folder_name: "default" },
    });
    const traces =
      (await get(`/api/v2/transactions/${w.forwardTx}/internal-transactions`)).body.items.length > 0;
    expect(await get("/api/v2/config/indexer")).toEqual({
      status: 200,
      body: {
        indexer_enabled: true,
        internal_transactions_fetcher_enabled: traces,
        pending_transactions_fetcher_enabled: false,
        block_reward_fetcher_enabled: expect.any(Boolean),
        token_instance_retry_fetcher_enabled: true,
        token_instance_sanitize_fetcher_enabled: true,
      },
    });
    expect(await get("/api/v2/config/public-metrics")).toEqual({
      status: 200,
      body: { update_period_hours: 24 },
    });
    expect(await get("/api/v2/config/smart-contracts/languages")).toEqual({
      status: 200,
      body: { languages: ["solidity", "vyper", "yul"] },
    });
  });

  it("/config/db-background-migrations: none unfinished, as the database holds every migration; Blockscout's members documented", async () => {
    // The claim behind the empty list: the serving process's database lacks no migration file.
    expect(await pendingMigrations(w.db.db)).toEqual([]);
    expect(await get("/api/v2/config/db-background-migrations")).toEqual({
      status: 200,
      body: { migrations: [] },
    });
    // An item, were there one, as ConfigController.db_background_migrations writes a migrations_status row.
    const doc = (await get("/api/v2/openapi")).body;
    const ok = doc.paths["/api/v2/config/db-background-migrations"].get.responses["200"];
    const item = ok.content["application/json"].schema.properties.migrations.items;
    expect(Object.keys(item.properties)).toEqual([
      "migration_name",
      "status",
      "inserted_at",
      "updated_at",
      "meta",
    ]);
    expect(item.properties.migration_name.type).toBe("string");
    expect(item.properties.status.type).toBe("string");
    expect(item.properties.inserted_at).toMatchObject({ type: "string", format: "date-time" });
    expect(item.properties.updated_at).toMatchObject({ type: "string", format: "date-time" });
    expect(item.required).toEqual(["migration_name", "status", "inserted_at", "updated_at", "meta"]);
  });

  it("the watchlists answer 401 Unauthorized (no accounts), as Blockscout without a session", async () => {
    for (const path of ["/api/v2/transactions/watchlist", "/api/v2/main-page/transactions/watchlist"])
      expect(await get(path)).toEqual({ status: 401, body: { message: "Unauthorized" } });
  });

  it("/transactions/{h}/summary: 403 as Blockscout without its interpretation service", async () => {
    expect(await get(`/api/v2/transactions/${w.forwardTx}/summary`)).toEqual({
      status: 403,
      body: { message: "Transaction Interpretation Service is disabled" },
    });
  });

  // Blockscout compiles these in only for CHAIN_TYPE=ethereum (api_router.ex); elsewhere its /api/v2 catch-all
  // answers 400. Lookout does not index deposits, so it answers as such a Blockscout rather than an empty list that
  // would claim none were made (the frontend skips them with NEXT_PUBLIC_BEACON_CHAIN_WITHDRAWALS_ONLY=true).
  it("/beacon/deposits*: 400 Unknown API v2 action, as Blockscout answers on a chain that is not Ethereum", async () => {
    for (const path of [
      "/api/v2/beacon/deposits",
      "/api/v2/beacon/deposits/count",
      `/api/v2/addresses/${w.acct[0]}/beacon/deposits`,
      "/api/v2/blocks/1/beacon/deposits",
      `/api/v2/transactions/${w.forwardTx}/beacon/deposits`,
    ])
      expect(await get(path)).toEqual({ status: 400, body: { message: "Unknown API v2 action" } });
  });

  it("/smart-contracts/{h}/audit-reports: 404 for an unverified address; submissions 403 (no form)", async () => {
    expect(await get(`/api/v2/smart-contracts/${w.coin}/audit-reports`)).toEqual({
      status: 404,
      body: { message: "Not found" },
    });
    expect(await get(`/api/v2/smart-contracts/${w.coin}/audit-reports`, "POST")).toEqual({
      status: 403,
      body: { message: "API endpoint is disabled" },
    });
  });

  it("/addresses carries exchange_rate (null without a price source); /api/v2/openapi is the OpenAPI document", async () => {
    const list = await get("/api/v2/addresses");
    expect(Object.keys(list.body)).toEqual(["items", "next_page_params", "exchange_rate", "total_supply"]);
    expect(list.body.exchange_rate).toBeNull();
    const doc = await get("/api/v2/openapi");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    expect(doc.body.paths["/api/v2/transactions/{transaction_hash_param}/fhe-operations"]).toBeDefined();
    expect(doc.body).toEqual((await get("/api/docs/openapi.json")).body);
  });
});
