import { type TSchema, Type } from "@sinclair/typebox";
import {
  type ActionAnswers,
  failAnswer,
  noneAnswer,
  okAnswer,
  pendingAnswer,
  rpcErrorAnswer,
  rpcResultAnswer,
  S,
} from "../answer-spec.js";

/** Bad input: a required parameter missing, a malformed address or hash, page x offset past the window. */
const BAD_INPUT = failAnswer(
  'Bad input: a required parameter missing, an invalid address ("Invalid address format") or page x offset past 10,000 ("Result window is too large, …")',
);

const balanceItem = S.item({ account: S.address(), balance: S.decimal("Wei"), stale: Type.Boolean() });

/** txItem (view.ts). */
const txItem = S.item({
  blockNumber: S.decimal(),
  timeStamp: S.decimal("Unix seconds"),
  hash: S.hash(),
  nonce: S.decimal(),
  blockHash: S.hash(),
  transactionIndex: S.decimal(),
  from: S.address(),
  to: S.orEmpty(S.address()),
  value: S.decimal("Wei"),
  gas: S.decimal(),
  gasPrice: S.orEmpty(S.decimal()),
  isError: Type.Union([Type.Literal("0"), Type.Literal("1")]),
  txreceipt_status: Type.Union([Type.Literal("0"), Type.Literal("1")]),
  input: S.data(),
  contractAddress: S.orEmpty(S.address()),
  cumulativeGasUsed: S.decimal(),
  gasUsed: S.decimal(),
  confirmations: S.decimal(),
  methodId: Type.String({ pattern: "^0x([0-9a-f]{8})?$", description: 'The selector; "0x" for a creation' }),
});

/** internalItem (view.ts). */
const internalItem = S.item({
  blockNumber: S.decimal(),
  timeStamp: S.decimal("Unix seconds"),
  from: S.address(),
  to: S.orEmpty(S.address()),
  value: S.decimal("Wei"),
  contractAddress: S.orEmpty(S.address()),
  transactionHash: S.hash(),
  index: S.decimal(),
  input: S.orEmpty(S.data()),
  type: Type.String({ description: "call, create, create2, selfdestruct, reward" }),
  callType: Type.String({ description: 'call, delegatecall, staticcall, callcode; "" for a creation' }),
  gas: S.decimal(),
  gasUsed: S.orEmpty(S.decimal()),
  isError: Type.Union([Type.Literal("0"), Type.Literal("1")]),
  errCode: Type.String({ description: 'The error the trace gives; "" without one' }),
});

/** The members every token transfer item has (transferItem in view.ts). */
const transferMembers = {
  blockNumber: S.decimal(),
  timeStamp: S.decimal("Unix seconds"),
  hash: S.hash(),
  nonce: S.decimal(),
  blockHash: S.hash(),
  from: S.address(),
  contractAddress: S.address(),
  to: S.address(),
  tokenName: Type.Union([Type.String(), Type.Null()]),
  tokenSymbol: Type.Union([Type.String(), Type.Null()]),
  tokenDecimal: S.orEmpty(S.decimal()),
  transactionIndex: S.decimal(),
  gas: S.decimal(),
  gasPrice: S.orEmpty(S.decimal()),
  gasUsed: S.decimal(),
  cumulativeGasUsed: S.decimal(),
  input: S.data(),
  confirmations: S.decimal(),
  methodId: Type.Literal("", {
    description: "Blockscout decodes it with a verified ABI; Lookout leaves it empty",
  }),
  functionName: Type.Literal(""),
};

const transfers = (item: TSchema, standard: string) => [
  okAnswer(Type.Array(item), `The ${standard} transfers, newest first unless sort=asc`),
  noneAnswer("No token transfers found"),
  BAD_INPUT,
];

const erc20Transfer = S.item({ ...transferMembers, value: S.decimal("Amount in the token's smallest unit") });
const erc721Transfer = S.item({ ...transferMembers, tokenID: S.decimal() });
const erc1155Transfer = S.item({ ...transferMembers, tokenID: S.decimal(), tokenValue: S.decimal() });
/** ERC-404: the fungible side carries `value` (tokenID ""), the NFT side `tokenID` (value ""). */
const erc404Transfer = Type.Union([
  S.item({ ...transferMembers, tokenID: Type.Literal(""), value: S.decimal() }),
  S.item({ ...transferMembers, tokenID: S.decimal(), value: Type.Literal("") }),
]);
/** ERC-7984 (confidential): the amount is encrypted, written null. */
const erc7984Transfer = S.item({ ...transferMembers, value: Type.Null() });

const holdingMembers = {
  balance: S.decimal(),
  contractAddress: S.address(),
  name: Type.Union([Type.String(), Type.Null()]),
  decimals: S.orEmpty(S.decimal()),
  symbol: Type.Union([Type.String(), Type.Null()]),
  type: Type.String({ description: "ERC-20, ERC-721, ERC-1155, ERC-404" }),
};
/** holdingItem (view.ts): `id` only for ERC-1155 holdings. */
const holding = Type.Union([S.item(holdingMembers), S.item({ ...holdingMembers, id: S.decimal() })]);

/** Each account action's answers (Blockscout's RPC docs of the account module, as Lookout gives them). */
export const accountAnswers: ActionAnswers = {
  balance: [
    okAnswer(S.decimal("Wei"), "One address: its balance in wei (0 for an address never seen)"),
    okAnswer(Type.Array(balanceItem), "Several comma-separated addresses: each with its balance"),
    BAD_INPUT,
  ],
  balancemulti: [okAnswer(Type.Array(balanceItem), "Each address with its balance in wei"), BAD_INPUT],
  txlist: [
    okAnswer(Type.Array(txItem), "The address's transactions (sender, recipient or created contract)"),
    noneAnswer("No transactions found"),
    BAD_INPUT,
  ],
  txlistinternal: [
    okAnswer(Type.Array(internalItem), "Internal transactions (call frames below the top one)"),
    noneAnswer("No internal transactions found"),
    pendingAnswer("The transaction is not traced yet"),
    BAD_INPUT,
  ],
  tokentx: transfers(erc20Transfer, "ERC-20"),
  tokennfttx: transfers(erc721Transfer, "ERC-721"),
  token1155tx: transfers(erc1155Transfer, "ERC-1155"),
  token404tx: transfers(erc404Transfer, "ERC-404"),
  token7984tx: transfers(erc7984Transfer, "ERC-7984"),
  tokenbalance: [okAnswer(S.decimal(), "The holder's balance in the token's smallest unit"), BAD_INPUT],
  tokenlist: [
    okAnswer(Type.Array(holding), "Every positive token balance of the holder"),
    noneAnswer("No tokens found"),
    BAD_INPUT,
  ],
  getminedblocks: [
    okAnswer(
      Type.Array(
        S.item({
          blockNumber: S.decimal(),
          timeStamp: Type.String({ description: 'Elixir\'s DateTime text, "2024-01-02 03:04:05.000000Z"' }),
        }),
      ),
      "The blocks the address mined",
    ),
    noneAnswer("No blocks found"),
    BAD_INPUT,
  ],
  listaccounts: [
    okAnswer(
      Type.Array(S.item({ balance: S.decimal("Wei"), address: S.address(), stale: Type.Boolean() })),
      "Accounts in the order the index first saw them",
    ),
    BAD_INPUT,
  ],
  pendingtxlist: [noneAnswer("No transactions found"), BAD_INPUT],
  eth_get_balance: [
    rpcResultAnswer(S.quantity(), "The balance in wei at the block, JSON-RPC shaped"),
    rpcErrorAnswer(400, "The address is missing or invalid, or the block is not a number or tag"),
    rpcErrorAnswer(404, '"Balance not found": no balance is known at that block'),
  ],
};
