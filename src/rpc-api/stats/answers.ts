import { Type } from "@sinclair/typebox";
import { type ActionAnswers, failAnswer, okAnswer, S } from "../answer-spec.js";

/** Without a price source Blockscout answers the rate members as null (rates in actions.ts). */
const rates = (prefix: string) =>
  okAnswer(
    S.item({
      [`${prefix}btc`]: Type.Null(),
      [`${prefix}btc_timestamp`]: Type.Null(),
      [`${prefix}usd`]: Type.Null(),
      [`${prefix}usd_timestamp`]: Type.Null(),
    }),
    "No price source: every member null",
  );

const BAD_TOKEN = failAnswer(
  '"Query parameter contract address is required", "Invalid contract address format" or "Contract address not found"',
);

export const statsAnswers: ActionAnswers = {
  ethsupply: [okAnswer(S.decimal("Wei"), "The sum of every coin balance, in wei")],
  ethsupplyexchange: [okAnswer(Type.Literal("0"), 'The market source\'s supply: "0", no market source')],
  coinsupply: [
    okAnswer(
      Type.String({ pattern: "^[0-9]+(\\.[0-9]+)?$" }),
      "The coin supply less the zero address's balance, in ether (decimal text)",
    ),
  ],
  tokensupply: [
    okAnswer(Type.Union([S.decimal(), Type.Null()]), "The total supply in the smallest unit (null: unknown)"),
    {
      httpStatus: 200,
      description: "cmc=true: the supply in whole tokens with 9 decimals, as plain text",
      contentType: "text/plain",
      schema: Type.String({ pattern: "^([0-9]+\\.[0-9]{9})?$" }),
    },
    BAD_TOKEN,
  ],
  ethprice: [rates("eth")],
  coinprice: [rates("coin_")],
  totalfees: [
    okAnswer(
      Type.Union([S.decimal("Wei"), Type.Null()]),
      "The fees paid that UTC day (null: no block that day)",
    ),
    failAnswer('"Required date input is missing." or "An incorrect input date provided. …"'),
  ],
};
