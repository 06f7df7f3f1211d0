import { Type } from "@sinclair/typebox";
import { type ActionAnswers, failAnswer, okAnswer, rpcResultAnswer, S } from "../answer-spec.js";

const BAD_BLOCK = failAnswer('"Query parameter \'blockno\' is required" or "Invalid block number"');

export const blockAnswers: ActionAnswers = {
  getblockreward: [
    okAnswer(
      S.item({
        blockNumber: S.decimal(),
        timeStamp: Type.Integer({ description: "Unix seconds (a number, as Blockscout writes it)" }),
        blockMiner: S.address(),
        blockReward: S.decimal("Wei"),
        uncles: Type.Array(
          S.item({ unclePosition: S.decimal(), miner: S.address(), blockreward: S.decimal("Wei") }),
        ),
        uncleInclusionReward: S.decimal("Wei"),
      }),
      "The block's miner reward and its uncles'",
    ),
    BAD_BLOCK,
    failAnswer('"Block does not exist"'),
  ],
  getblocknobytime: [
    okAnswer(S.item({ blockNumber: S.decimal() }), "The last block before (or first after) the time"),
    failAnswer(
      'Bad input ("Query parameter \'timestamp\' is required", "Invalid `closest` param", …) or "Block does not exist"',
    ),
  ],
  getblockcountdown: [
    okAnswer(
      S.item({
        CurrentBlock: S.decimal(),
        CountdownBlock: S.decimal(),
        RemainingBlock: S.decimal(),
        EstimateTimeInSec: Type.String({
          pattern: "^[0-9]+\\.[0-9]+$",
          description: "Seconds, one decimal at least",
        }),
      }),
      "Blocks and seconds until the block (from the average block time)",
    ),
    BAD_BLOCK,
    failAnswer('"Error! Block number already pass" or "Chain is indexing now, try again later"'),
  ],
  eth_block_number: [
    rpcResultAnswer(
      Type.Union([S.quantity(), Type.Null()]),
      "The newest indexed block, JSON-RPC shaped (id echoed, default 1; null before the first block)",
    ),
  ],
};
