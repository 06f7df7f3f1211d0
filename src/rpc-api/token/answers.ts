import { Type } from "@sinclair/typebox";
import { type ActionAnswers, failAnswer, okAnswer, S } from "../answer-spec.js";

const BAD_ADDRESS = failAnswer(
  '"Query parameter contract address is required" or "Invalid contract address hash"',
);

export const tokenAnswers: ActionAnswers = {
  gettoken: [
    okAnswer(
      S.item({
        type: Type.String({ description: "ERC-20, ERC-721, ERC-1155, ERC-404" }),
        name: Type.Union([Type.String(), Type.Null()]),
        symbol: Type.Union([Type.String(), Type.Null()]),
        totalSupply: S.orEmpty(S.decimal()),
        decimals: S.orEmpty(S.decimal()),
        contractAddress: S.address(),
        cataloged: Type.Boolean(),
      }),
      "The token",
    ),
    BAD_ADDRESS,
    failAnswer('"Contract address not found": not a token the index knows'),
  ],
  gettokenholders: [
    okAnswer(
      Type.Array(S.item({ address: S.address(), value: S.decimal() })),
      "Holders by balance, largest first (an empty list for an unknown token)",
    ),
    BAD_ADDRESS,
    failAnswer('"Result window is too large, …": page x offset past 10,000'),
  ],
};
