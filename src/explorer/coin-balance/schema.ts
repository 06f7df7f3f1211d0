import { Type } from "@sinclair/typebox";

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const IntegerString = Type.String({ pattern: "^-?([1-9][0-9]*|0)$" });

// The frontend's `AddressCoinBalanceHistoryItem` / `AddressCoinBalanceHistoryResponse`, exactly: no field more.
export const CoinBalanceItemSchema = Type.Object(
  {
    block_number: Type.Integer(),
    block_timestamp: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$" }),
    delta: IntegerString,
    transaction_hash: Nullable(Type.String({ pattern: "^0x[0-9a-f]{64}$" })),
    value: IntegerString,
  },
  { additionalProperties: false },
);

export const CoinBalanceHistorySchema = Type.Object(
  {
    items: Type.Array(CoinBalanceItemSchema),
    next_page_params: Type.Union([
      Type.Object(
        { block_number: Type.Integer(), items_count: Type.Integer() },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);

export const CoinBalanceByDaySchema = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        { date: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" }), value: IntegerString },
        { additionalProperties: false },
      ),
    ),
    days: Type.Integer(),
  },
  { additionalProperties: false },
);
