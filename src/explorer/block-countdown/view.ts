/**
 * A float as Elixir's `to_string` writes it (Erlang's shortest form): "24.0", "12.5", and the exponent form where it
 * is shorter ("1.0e3" for 1000.0, "1.2e3" for 1200.0). For the finite, non-negative values of a countdown. Pure.
 */
export function elixirFloat(x: number): string {
  if (x === 0) return "0.0";
  const [mantissa = "", expPart = "0"] = x.toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const place = Number(expPart) + 1; // where the decimal point goes, counted in digits
  const len = digits.length;
  if (place > 0 && place < len) return `${digits.slice(0, place)}.${digits.slice(place)}`;
  const expCost = String(place - 1).length + 1 + (len === 1 ? 2 : 1);
  const scientific = `${digits[0]}.${len === 1 ? "0" : digits.slice(1)}e${place - 1}`;
  if (place <= 0) return 2 - place <= expCost ? `0.${"0".repeat(-place)}${digits}` : scientific;
  return place - len + 2 <= expCost ? `${digits}${"0".repeat(place - len)}.0` : scientific;
}

export type BlockCountdown = {
  current_block_number: string;
  countdown_block_number: string;
  remaining_blocks_count: string;
  estimated_time_in_seconds: string;
};

/** BlockView "block_countdown.json": every member a string; the estimate rounded to a tenth of a second. Pure. */
export function countdownView(head: number, target: number, averageBlockTimeMs: number): BlockCountdown {
  const remaining = target - head;
  const seconds = Math.round(remaining * (averageBlockTimeMs / 1000) * 10) / 10;
  return {
    current_block_number: String(head),
    countdown_block_number: String(target),
    remaining_blocks_count: String(remaining),
    estimated_time_in_seconds: elixirFloat(seconds),
  };
}
