import { type AbiFunction, type Address, toFunctionSelector } from "viem";
import { fromBytea } from "../../db/bytes.js";
import { csvLine } from "../../http/csv.js";
import { verifiedAbisFor } from "../decoding/abi.js";
import { type DecodedInput, decodeFunctionInput } from "../decoding/function-input.js";
import type { ExplorerDeps } from "../deps.js";
import { addressObjectsFromColumns, factColumns } from "../objects/address-facts.js";
import { checksummed } from "../objects/checksum.js";
import { type TokenObject, tokenFactsFromRow, tokenView } from "../objects/token-view.js";
import { indexedChainId } from "../objects/verified-store.js";
import { PAGE_LIMIT, splitPage } from "../paging.js";
import {
  type AdvancedFilterCursor,
  type AdvancedFilterQuery,
  type AdvancedFilters,
  KNOWN_METHODS,
  LIST_LIMIT,
  METHOD_ID_BY_NAME,
  METHOD_NAME_BY_ID,
  parseCursor,
  parseFilters,
} from "./filters.js";
import {
  type AdvancedFilterRow,
  advancedFilterPage,
  tokensByAddress,
  verifiedFunctionByName,
} from "./query.js";
import {
  ADVANCED_FILTER_CSV_HEADER,
  type AdvancedFilterItem,
  advancedFilterCsvRow,
  advancedFilterCursor,
  advancedFilterItems,
  itemCallee,
  itemInput,
} from "./view.js";

/** Blockscout's CSV_EXPORT_LIMIT default: the most rows one export writes. */
export const CSV_EXPORT_LIMIT = 10_000;
/** Rows read per statement while an export streams. */
const CSV_CHUNK = 1_000;

/** Decoded inputs of the rows whose callee (or its implementation) is verified, by row position. */
async function decodeInputs(deps: ExplorerDeps, rows: readonly AdvancedFilterRow[]) {
  const out = new Map<number, DecodedInput | null>();
  const verified = rows.flatMap((r, n) => (r.callee_verified && itemCallee(r) ? [n] : []));
  if (!verified.length) return out;
  const chainId = await indexedChainId(deps.db);
  if (chainId === null) return out;
  const abis = await verifiedAbisFor(
    deps.db,
    chainId,
    verified.map((n) => itemCallee(rows[n]!)!),
  );
  for (const n of verified) {
    const abi = abis.get(itemCallee(rows[n]!)!);
    out.set(n, abi ? decodeFunctionInput(abi, itemInput(rows[n]!)) : null);
  }
  return out;
}

async function renderRows(deps: ExplorerDeps, rows: readonly AdvancedFilterRow[], previousHash?: string) {
  const facts = function* () {
    for (const r of rows) {
      yield [r.from_address, factColumns(r, "af")] as const;
      if (r.to_address) yield [r.to_address, factColumns(r, "at")] as const;
      if (r.created_address) yield [r.created_address, factColumns(r, "ac")] as const;
    }
  };
  const [addresses, decoded] = await Promise.all([
    addressObjectsFromColumns(facts(), deps),
    decodeInputs(deps, rows),
  ]);
  return { items: advancedFilterItems(rows, { addresses, decoded }, previousHash), decoded };
}

/**
 * search_params.methods: the names of the requested selectors, from Blockscout's list of popular methods, else
 * from the page's decoded inputs. (Blockscout also looks them up in its table of known signatures, which Lookout
 * does not keep.)
 */
function methodNames(
  f: AdvancedFilters,
  rows: readonly AdvancedFilterRow[],
  decoded: ReadonlyMap<number, DecodedInput | null>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of f.methods ?? []) {
    const known = METHOD_NAME_BY_ID.get(m);
    if (known) {
      out[m] = known;
      continue;
    }
    for (const [n, d] of decoded) {
      if (d && itemInput(rows[n]!).slice(0, 10) === m) {
        out[m] = d.method_call.slice(0, d.method_call.indexOf("("));
        break;
      }
    }
  }
  return out;
}

/** search_params.tokens: the tokens the request names (both lists, `native` apart, at most 20), by address. */
async function namedTokens(deps: ExplorerDeps, f: AdvancedFilters): Promise<Record<string, TokenObject>> {
  const named = [...new Set([...f.tokens.include, ...f.tokens.exclude])]
    .filter((t): t is Address => t !== "native")
    .slice(0, LIST_LIMIT);
  if (!named.length) return {};
  const rows = await tokensByAddress(deps.db, named);
  return Object.fromEntries(
    rows.map((r) => {
      const a = fromBytea(r.address);
      return [a, tokenView(tokenFactsFromRow(checksummed(a), r))];
    }),
  );
}

/** `/advanced-filters`: one page of 50 items, Blockscout's next_page_params and the named methods and tokens. */
export async function advancedFilters(deps: ExplorerDeps, q: AdvancedFilterQuery) {
  const f = parseFilters(q);
  const [rows, tokens] = await Promise.all([
    advancedFilterPage(deps.db, f, parseCursor(q), PAGE_LIMIT),
    namedTokens(deps, f),
  ]);
  const page = splitPage(rows, advancedFilterCursor);
  const { items, decoded } = await renderRows(deps, page.rows);
  return {
    items,
    search_params: { methods: methodNames(f, page.rows, decoded), tokens },
    next_page_params: page.next_page_params,
  };
}

/**
 * `/advanced-filters/csv`: the same list from the request's cursor, at most CSV_EXPORT_LIMIT rows, read in chunks
 * of CSV_CHUNK as the client takes them. The fee rule of the list (0 for a transaction's later items) holds across
 * chunks.
 */
export async function* advancedFiltersCsv(
  deps: ExplorerDeps,
  q: AdvancedFilterQuery,
): AsyncGenerator<string> {
  const f = parseFilters(q);
  let cursor: AdvancedFilterCursor | null = parseCursor(q);
  let left = CSV_EXPORT_LIMIT;
  let previousHash: string | undefined;
  yield csvLine(ADVANCED_FILTER_CSV_HEADER);
  while (left > 0) {
    const rows = await advancedFilterPage(deps.db, f, cursor, Math.min(CSV_CHUNK, left), { facts: false });
    if (!rows.length) return;
    const items: AdvancedFilterItem[] = advancedFilterItems(
      rows,
      { addresses: new Map(), decoded: new Map() },
      previousHash,
    );
    let out = "";
    for (const [n, item] of items.entries()) out += csvLine(advancedFilterCsvRow(item, rows[n]!));
    yield out;
    left -= rows.length;
    const last = rows[rows.length - 1]!;
    previousHash = fromBytea(last.hash);
    const c = advancedFilterCursor(last);
    cursor = {
      blockNumber: c.block_number,
      transactionIndex: c.transaction_index,
      internalIndex: c.internal_transaction_index,
      transferIndex: c.token_transfer_index,
      transferBatchIndex: c.token_transfer_batch_index,
    };
    if (rows.length < CSV_CHUNK) return;
  }
}

/**
 * `/advanced-filters/methods`: without `q` Blockscout's popular methods; with `q` (lower-cased, as Blockscout
 * does) the popular method of that selector or name, else a verified ABI's function of that name, else for a
 * 4-byte selector the selector with an empty name, else nothing.
 */
export async function searchMethods(
  deps: ExplorerDeps,
  q: string | undefined,
): Promise<Array<{ method_id: string; name: string }>> {
  if (q === undefined) return KNOWN_METHODS.map((m) => ({ ...m }));
  const query = q.toLowerCase();
  const knownName = METHOD_NAME_BY_ID.get(query);
  if (knownName) return [{ method_id: query, name: knownName }];
  const knownId = METHOD_ID_BY_NAME.get(query);
  if (knownId) return [{ method_id: knownId, name: query }];
  if (/^0x[0-9a-f]{8}$/.test(query)) return [{ method_id: query, name: "" }];
  const fn = await verifiedFunctionByName(deps.db, query);
  if (!fn) return [];
  try {
    return [{ method_id: toFunctionSelector(fn as unknown as AbiFunction), name: fn.name }];
  } catch {
    return [];
  }
}
