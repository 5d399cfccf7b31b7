// Timestamps leave the API as ISO 8601 UTC with millisecond precision and a trailing Z.
export function iso(d: Date | string | number): string {
  return (d instanceof Date ? d : new Date(d)).toISOString();
}

export function isoOrNull(d: Date | string | number | null | undefined): string | null {
  return d === null || d === undefined ? null : iso(d);
}
