// Money as the hub shows it. The API counts in micros (1,000,000 micros = US$1); every screen
// formats them here, so one charge reads the same on the run page, Usage and API keys.

const MICROS_PER_CENT = 10_000;

/**
 * To the cent, as people read prices: "$0.42", "$1,234.50". A charge of less than a cent (one
 * short LLM call) is "< $0.01", never $0.00, so it never looks free; the exact micros stay in the API.
 */
export function dollars(micros: number): string {
  if (micros !== 0 && Math.abs(micros) < MICROS_PER_CENT) return micros > 0 ? '< $0.01' : '> -$0.01';
  const sign = micros < 0 ? '-' : '';
  const cents = Math.round(Math.abs(micros) / MICROS_PER_CENT);
  const whole = Math.floor(cents / 100).toLocaleString('en-US');
  return `${sign}$${whole}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * A small amount where its size matters: to the cent like dollars(), except amounts under a cent,
 * read in cents ("0.8¢"): a unit price (one SMS send) and a chart axis's ticks, which would
 * otherwise all read "< $0.01".
 */
export function centsOrDollars(micros: number): string {
  if (micros > 0 && micros < MICROS_PER_CENT) return `${Number((micros / MICROS_PER_CENT).toPrecision(2))}¢`;
  return dollars(micros);
}
