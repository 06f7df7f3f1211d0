import { Type } from "@sinclair/typebox";

export const COUNTDOWN_PARAMS = Type.Object({
  block_number_param: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
});

/** GET /blocks/{n}/countdown (BlockView "block_countdown.json"). */
export const BlockCountdownSchema = Type.Object({
  current_block_number: Type.String(),
  countdown_block_number: Type.String(),
  remaining_blocks_count: Type.String(),
  estimated_time_in_seconds: Type.String(),
});

export const CountdownMessageSchema = Type.Object({ message: Type.String() });
