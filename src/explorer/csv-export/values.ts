/**
 * Values as Blockscout's CSV exports write them (NimbleCSV writes each with to_string): a timestamp as Elixir
 * prints a DateTime with microseconds, amounts in whole units as Decimal's `:xsd` form.
 */

/** `2024-05-01 12:00:00.000000Z`: DateTime.to_string of a utc_datetime_usec. */
export function csvTimestamp(d: Date): string {
  const iso = d.toISOString(); // 2024-05-01T12:00:00.000Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000Z`;
}

/**
 * `value` / 10^`decimals` exactly, in Decimal's canonical xsd form: no exponent, trailing fraction zeros dropped,
 * at least one fraction digit ("100.0", "1.5", "0.000001").
 */
export function unitsXsd(value: string, decimals: number): string {
  const negative = value.startsWith("-");
  const digits = (negative ? value.slice(1) : value).replace(/^0+(?=\d)/, "");
  const places = Math.max(0, Math.trunc(decimals));
  const padded = digits.padStart(places + 1, "0");
  const whole = padded.slice(0, padded.length - places);
  const fraction = padded.slice(padded.length - places).replace(/0+$/, "");
  return `${negative && /[1-9]/.test(digits) ? "-" : ""}${whole}.${fraction || "0"}`;
}
