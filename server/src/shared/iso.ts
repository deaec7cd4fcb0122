/**
 * A timestamp as the API answers it (ISO 8601, UTC). The drivers hand back a Date for timestamptz, or a string
 * where a value went through JSON inside SQL (json_agg), so both are accepted; a Date is not copied, since the
 * station lists format thousands of them.
 */
export const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();
