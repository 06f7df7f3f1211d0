import { Type } from "@sinclair/typebox";
import { type ActionAnswers, failAnswer, noneAnswer, okAnswer, S } from "../answer-spec.js";

/** logItem (view.ts): numbers as 0x-hex, as Blockscout's LogsView and Etherscan. */
const logItem = S.item({
  address: S.address(),
  topics: Type.Array(Type.Union([S.hash(), Type.Null()]), { minItems: 4, maxItems: 4 }),
  data: S.data(),
  blockNumber: S.quantity(),
  timeStamp: S.quantity(),
  gasPrice: S.quantity(),
  gasUsed: S.quantity(),
  logIndex: S.quantity(),
  transactionHash: S.hash(),
  transactionIndex: S.quantity(),
});

export const logsAnswers: ActionAnswers = {
  getlogs: [
    okAnswer(Type.Array(logItem), "The matching logs in (block, log index) order, at most 1000"),
    noneAnswer("No logs found"),
    failAnswer(
      'Bad input: "Required query parameters missing: …", "Invalid fromBlock format", "Invalid address format", "Invalid topicX_Y_opr format"',
    ),
  ],
};
