// Addresses in logs: enough to tell messages apart, never the whole address or number.
export function maskAddress(to: string): string {
  const at = to.lastIndexOf('@');
  if (at > 0) return `${to[0]}***${to.slice(at)}`;
  const digits = to.replace(/[^0-9]/g, '');
  return digits.length > 2 ? `***${digits.slice(-2)}` : '***';
}

/** Provider error text for logs: email addresses and phone-like digit runs blanked out. */
export function redactAddresses(text: string): string {
  return text.replace(/[^\s<>"'@]+@[^\s<>"']+/g, '[address]').replace(/\+?\d[\d\s().-]{6,}\d/g, '[number]');
}
