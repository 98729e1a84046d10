/** "980", "1.2k", "34k", "1.1M" — for dense columns. */
export function formatCompact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** "1,234 tokens" / "1 token". */
export function formatTokens(n: number): string {
  return `${n.toLocaleString('en-US')} token${n === 1 ? '' : 's'}`;
}
