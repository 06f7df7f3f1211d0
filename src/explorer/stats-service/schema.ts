import { Type } from "@sinclair/typebox";

/** The stats service's shapes (blockscout-rs stats.proto, JSON with its proto field names). */
export const CounterSchema = Type.Object({
  id: Type.String(),
  value: Type.String(),
  title: Type.String(),
  units: Type.Optional(Type.String()),
  description: Type.String(),
});

export const ChartInfoSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  units: Type.Optional(Type.String()),
  resolutions: Type.Array(Type.String()),
});

export const PointSchema = Type.Object({
  date: Type.String(),
  date_to: Type.String(),
  value: Type.String(),
  is_approximate: Type.Boolean(),
});

export const LineChartSchema = Type.Object({ chart: Type.Array(PointSchema), info: ChartInfoSchema });

export const CountersSchema = Type.Object({ counters: Type.Array(CounterSchema) });

export const LineChartsSchema = Type.Object({
  sections: Type.Array(
    Type.Object({ id: Type.String(), title: Type.String(), charts: Type.Array(ChartInfoSchema) }),
  ),
});

const opt = Type.Optional(CounterSchema);

export const MainPageSchema = Type.Object({
  average_block_time: opt,
  total_addresses: opt,
  total_blocks: opt,
  total_transactions: opt,
  yesterday_transactions: opt,
  op_stack_total_operational_transactions: opt,
  op_stack_yesterday_operational_transactions: opt,
  daily_new_transactions: Type.Optional(LineChartSchema),
  op_stack_daily_new_operational_transactions: Type.Optional(LineChartSchema),
});

export const TransactionsPageSchema = Type.Object({
  pending_transactions_30m: opt,
  transactions_fee_24h: opt,
  average_transactions_fee_24h: opt,
  transactions_24h: opt,
});

export const ContractsPageSchema = Type.Object({
  total_contracts: opt,
  new_contracts_24h: opt,
  total_verified_contracts: opt,
  new_verified_contracts_24h: opt,
});

const Status = Type.String();
export const UpdateStatusSchema = Type.Object({
  all_status: Status,
  independent_status: Status,
  blocks_dependent_status: Status,
  internal_transactions_dependent_status: Status,
  user_ops_dependent_status: Status,
  zetachain_cctx_dependent_status: Status,
});

/** The service's errors (gRPC status code and message). */
export const StatsErrorSchema = Type.Object({ code: Type.Integer(), message: Type.String() });
