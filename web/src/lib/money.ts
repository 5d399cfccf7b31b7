// Money as the hub shows it. The API counts in micros (1,000,000 micros = US$1); every screen
// formats them here, so one charge reads the same on the run page, Usage and API keys.

/** At least two decimals, up to six, so a fraction of a cent (one LLM call) never shows as $0.00. */
export function dollars(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const fixed = (Math.abs(micros) / 1_000_000).toFixed(6).replace(/(\.\d\d\d*?)0+$/, '$1');
  const [whole, frac] = fixed.split('.');
  return `${sign}$${Number(whole).toLocaleString('en-US')}.${frac}`;
}
