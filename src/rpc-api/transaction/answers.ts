import { Type } from "@sinclair/typebox";
import { type ActionAnswers, failAnswer, okAnswer, S } from "../answer-spec.js";

const BAD_HASH = failAnswer('"Query parameter txhash is required" or "Invalid txhash format"');

export const transactionAnswers: ActionAnswers = {
  gettxinfo: [
    okAnswer(
      S.item({
        hash: S.hash(),
        timeStamp: S.decimal("Unix seconds"),
        blockNumber: S.decimal(),
        confirmations: S.decimal(),
        success: Type.Boolean(),
        from: S.address(),
        to: S.orEmpty(S.address()),
        value: S.decimal("Wei"),
        input: S.data(),
        gasLimit: S.decimal(),
        gasUsed: S.decimal(),
        gasPrice: S.orEmpty(S.decimal()),
        logs: Type.Array(
          S.item({
            address: S.address(),
            topics: Type.Array(Type.Union([S.hash(), Type.Null()]), { minItems: 4, maxItems: 4 }),
            data: S.data(),
            index: S.decimal(),
          }),
          { maxItems: 50 },
        ),
        revertReason: Type.String(),
        next_page_params: Type.Union([
          Type.Null(),
          S.item({
            module: Type.Literal("transaction"),
            action: Type.Literal("gettxinfo"),
            txhash: Type.String(),
            block_number: Type.Integer(),
            index: Type.Integer(),
            items_count: Type.Integer(),
          }),
        ]),
      }),
      "The transaction and a page of up to 50 of its logs",
    ),
    BAD_HASH,
    failAnswer('"Transaction not found"'),
  ],
  gettxreceiptstatus: [
    okAnswer(
      S.item({ status: Type.Union([Type.Literal("1"), Type.Literal("0"), Type.Literal("")]) }),
      '"1" succeeded, "0" failed, "" unknown (not indexed, or before Byzantium)',
    ),
    BAD_HASH,
  ],
  getstatus: [
    okAnswer(
      Type.Union([
        S.item({ isError: Type.Literal("0"), errDescription: Type.Literal("") }),
        S.item({ isError: Type.Literal("1"), errDescription: Type.String({ minLength: 1 }) }),
      ]),
      'A failed transaction: isError "1" and the error its trace gives ("awaiting internal transactions" before it is traced)',
    ),
    BAD_HASH,
  ],
};
