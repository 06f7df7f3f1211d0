import { describe, expect, it } from "vitest";
import { countdownView, elixirFloat } from "./view.js";

describe("elixirFloat: Elixir's to_string of a float (Erlang's shortest form)", () => {
  it("writes the forms iex prints", () => {
    expect(elixirFloat(0)).toBe("0.0");
    expect(elixirFloat(24)).toBe("24.0");
    expect(elixirFloat(12.5)).toBe("12.5");
    expect(elixirFloat(100)).toBe("100.0");
    expect(elixirFloat(1000)).toBe("1.0e3");
    expect(elixirFloat(1200)).toBe("1.2e3");
    expect(elixirFloat(1234.5)).toBe("1234.5");
    expect(elixirFloat(0.1)).toBe("0.1");
    expect(elixirFloat(0.001)).toBe("0.001");
  });
});

describe("countdownView", () => {
  it("rounds the estimate to a tenth of a second, every member a string", () => {
    expect(countdownView(100, 110, 2000)).toEqual({
      current_block_number: "100",
      countdown_block_number: "110",
      remaining_blocks_count: "10",
      estimated_time_in_seconds: "20.0",
    });
    expect(countdownView(1, 4, 1234).estimated_time_in_seconds).toBe("3.7");
  });
});
