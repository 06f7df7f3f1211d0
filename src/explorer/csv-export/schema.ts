import { Type } from "@sinclair/typebox";

// Blockscout's @iso_date_or_datetime_pattern (a date, optionally a time and an offset), or the literal `null`.
const PERIOD = Type.String({
  pattern:
    "^(null|\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])([Tt]([01]\\d|2[0-3])(:[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?)?([Zz]|[+-]([01]\\d|2[0-3])(:?[0-5]\\d)?)?)?)$",
});
const S = Type.Optional(Type.String());

/** The query of an address's CSV export (CsvExportController: from_period and to_period are required). */
export const AddressCsvQuery = Type.Object(
  {
    from_period: PERIOD,
    to_period: PERIOD,
    filter_type: Type.Optional(Type.Union([Type.Literal("address"), Type.Literal("null")])),
    filter_value: Type.Optional(Type.Union([Type.Literal("to"), Type.Literal("from"), Type.Literal("null")])),
    recaptcha_response: S,
    apikey: S,
    key: S,
  },
  { additionalProperties: true },
);

/** The holders export takes the same members, all optional (a token's holders have no period). */
export const HoldersCsvQuery = Type.Object(
  {
    from_period: Type.Optional(PERIOD),
    to_period: Type.Optional(PERIOD),
    filter_type: S,
    filter_value: S,
    recaptcha_response: S,
    apikey: S,
    key: S,
  },
  { additionalProperties: true },
);

/** The older `/api/v1/*-csv` routes the frontend v2.0.3 calls: checked by the handler, as Blockscout did. */
export const V1CsvQuery = Type.Object(
  {
    address_id: S,
    from_period: S,
    to_period: S,
    filter_type: S,
    filter_value: S,
    recaptcha_response: S,
  },
  { additionalProperties: true },
);

/** The frontend's CsvExportConfig, with Blockscout's async_enabled. */
export const CsvExportConfigSchema = Type.Object({ limit: Type.Integer(), async_enabled: Type.Boolean() });
