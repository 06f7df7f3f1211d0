import { type Address, decodeAbiParameters, getAddress, type Hex } from "viem";
import type { RpcLog } from "../../../chain/types.js";

export type TokenType = "ERC-20" | "ERC-721" | "ERC-1155" | "ERC-404";

/** Upstream's priority: a token seen with several kinds of events takes the highest (sanitize_token_types). */
export const TOKEN_TYPE_PRIORITY: readonly TokenType[] = ["ERC-20", "ERC-721", "ERC-1155", "ERC-404"];

export const TOPICS = {
  transfer: "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
  transferSingle: "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62",
  transferBatch: "0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb",
  erc404Erc20Transfer: "0xe59fdd36d0d223c0c7d996db7ad796880f45e1936cb0bb7ac102e7082e031487",
  erc404Erc721Transfer: "0xe5f815dc84b8cecdfd4beedfc3f91ab5be7af100eca4e8fb11552b867995394f",
} as const;

const TOKEN_TOPICS = new Set<string>(Object.values(TOPICS));

/**
 * One movement of tokens. `kind` is the standard of the event; `tokenId` is null for fungible movements
 * (ERC-20 Transfer, ERC-404 ERC20Transfer). Addresses are lower-case.
 */
export type DecodedTransfer = {
  token: Address;
  kind: TokenType;
  from: Address;
  to: Address;
  tokenId: bigint | null;
  amount: bigint;
  /** Position inside a TransferBatch (0 otherwise). */
  batchIndex: number;
};

export type DecodeResult =
  | { ok: true; transfers: DecodedTransfer[] }
  | { ok: false; reason: string }
  /** Not a token event at all. */
  | null;

const lower = (a: string) => a.toLowerCase() as Address;

/** A 32-byte topic holding an address: the upper 12 bytes must be zero (else it is not an address). */
function topicAddress(topic: Hex | undefined): Address | null {
  if (topic?.length !== 66 || !/^0x0{24}/.test(topic)) return null;
  return lower(`0x${topic.slice(26)}`);
}

function word(data: Hex, i: number): bigint | null {
  const start = 2 + i * 64;
  if (data.length < start + 64) return null;
  return BigInt(`0x${data.slice(start, start + 64)}`);
}

function dataLength(data: Hex): number {
  return (data.length - 2) / 2;
}

/**
 * Decodes a log into token transfers, as upstream's Indexer.Transform.TokenTransfers does: ERC-20 (3 topics + 32-byte
 * amount), ERC-721 (4 topics, or the old form with everything in the data), ERC-1155 TransferSingle/TransferBatch,
 * ERC-404 ERC20Transfer/ERC721Transfer. A token event in a shape the standard does not allow gives `ok: false` with
 * a reason (the caller counts it and moves on). Pure.
 */
export function decodeTokenLog(log: Pick<RpcLog, "address" | "topics" | "data">): DecodeResult {
  const [t0, t1, t2, t3] = log.topics;
  if (!t0 || !TOKEN_TOPICS.has(t0)) return null;
  const token = lower(log.address);
  const n = log.topics.length;
  const data = log.data;
  const bad = (reason: string): DecodeResult => ({ ok: false, reason });
  const one = (
    kind: TokenType,
    from: Address,
    to: Address,
    tokenId: bigint | null,
    amount: bigint,
  ): DecodeResult => ({
    ok: true,
    transfers: [{ token, kind, from, to, tokenId, amount, batchIndex: 0 }],
  });

  switch (t0) {
    case TOPICS.transfer: {
      if (n === 3) {
        const from = topicAddress(t1);
        const to = topicAddress(t2);
        const amount = dataLength(data) === 32 ? word(data, 0) : null;
        if (!from || !to || amount === null) return bad("ERC-20 Transfer with non-standard topics or data");
        return one("ERC-20", from, to, null, amount);
      }
      if (n === 4) {
        const from = topicAddress(t1);
        const to = topicAddress(t2);
        if (!from || !to || dataLength(data) !== 0)
          return bad("ERC-721 Transfer with non-standard topics or data");
        return one("ERC-721", from, to, BigInt(t3!), 1n);
      }
      if (n === 1 && dataLength(data) === 96) {
        // Pre-standard ERC-721 (e.g. CryptoKitties): from, to, id all in the data.
        const from = topicAddress(`0x${data.slice(2, 66)}`);
        const to = topicAddress(`0x${data.slice(66, 130)}`);
        if (!from || !to) return bad("ERC-721 Transfer with non-address data");
        return one("ERC-721", from, to, word(data, 2)!, 1n);
      }
      return bad(`Transfer with ${n} topics and ${dataLength(data)} bytes of data`);
    }
    case TOPICS.transferSingle: {
      const from = topicAddress(t2);
      const to = topicAddress(t3);
      if (n !== 4 || !from || !to || dataLength(data) !== 64)
        return bad("TransferSingle with non-standard shape");
      return one("ERC-1155", from, to, word(data, 0)!, word(data, 1)!);
    }
    case TOPICS.transferBatch: {
      const from = topicAddress(t2);
      const to = topicAddress(t3);
      if (n !== 4 || !from || !to) return bad("TransferBatch with non-standard topics");
      let ids: readonly bigint[];
      let values: readonly bigint[];
      try {
        [ids, values] = decodeAbiParameters([{ type: "uint256[]" }, { type: "uint256[]" }], data);
      } catch {
        return bad("TransferBatch data does not decode as (uint256[], uint256[])");
      }
      if (ids.length !== values.length) return bad("TransferBatch with ids and values of different lengths");
      return {
        ok: true,
        transfers: ids.map((id, i) => ({
          token,
          kind: "ERC-1155" as const,
          from,
          to,
          tokenId: id,
          amount: values[i]!,
          batchIndex: i,
        })),
      };
    }
    case TOPICS.erc404Erc20Transfer: {
      const from = topicAddress(t1);
      const to = topicAddress(t2);
      const amount = n === 3 && dataLength(data) === 32 ? word(data, 0) : null;
      if (!from || !to || amount === null) return bad("ERC20Transfer with non-standard shape");
      return one("ERC-404", from, to, null, amount);
    }
    case TOPICS.erc404Erc721Transfer: {
      const from = topicAddress(t1);
      const to = topicAddress(t2);
      if (n !== 4 || !from || !to) return bad("ERC721Transfer with non-standard shape");
      return one("ERC-404", from, to, BigInt(t3!), 1n);
    }
    default:
      return null;
  }
}

export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000" as Address;

/** EIP-55 form for output. */
export const checksum = (a: string): Address => getAddress(a);

export function higherType(a: TokenType | null | undefined, b: TokenType): TokenType {
  if (!a) return b;
  return TOKEN_TYPE_PRIORITY.indexOf(a) >= TOKEN_TYPE_PRIORITY.indexOf(b) ? a : b;
}
