// Retirement list: routes announced for removal. Each named route answers with Deprecation
// (RFC 9745: the announcement as a structured date), Sunset (RFC 8594: when it stops working)
// and Link rel="sunset" (where the changelog explains it). CHANGELOG.md lists the same entries.

export interface Retirement {
  /** HTTP method and route pattern as registered, e.g. GET /v1/workflows/:id. */
  method: string;
  url: string;
  /** When the retirement was announced (ISO date). */
  announced: string;
  /** When the route stops working; v1 keeps working for at least 12 months after the announcement. */
  sunset: string;
  /** A page describing the change. */
  link: string;
}

/** v1 has retired nothing yet. Add entries here and in CHANGELOG.md together. */
export const RETIREMENTS: readonly Retirement[] = Object.freeze([]);

export type RetirementHeaders = Record<string, string>;

/** Precomputed headers per "METHOD url" so the hot path does a single Map lookup. */
export function retirementHeaders(list: readonly Retirement[]): Map<string, RetirementHeaders> {
  const out = new Map<string, RetirementHeaders>();
  for (const r of list) {
    const announced = Date.parse(r.announced);
    const sunset = Date.parse(r.sunset);
    if (Number.isNaN(announced) || Number.isNaN(sunset)) throw new Error(`bad retirement dates for ${r.method} ${r.url}`);
    out.set(`${r.method} ${r.url}`, {
      deprecation: `@${Math.floor(announced / 1000)}`,
      sunset: new Date(sunset).toUTCString(),
      link: `<${r.link}>; rel="sunset"`,
    });
  }
  return out;
}
