/**
 * A time as Blockscout renders its `utc_datetime_usec` fields (block timestamps, `inserted_at`): ISO 8601 UTC with
 * six fractional digits, `2022-08-02T07:18:05.000000Z`. Dates carry milliseconds, so the last three digits are 0.
 */
export function usecTimestamp(d: Date): string {
  return `${d.toISOString().slice(0, 23)}000Z`;
}
