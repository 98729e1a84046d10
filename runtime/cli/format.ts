import { describeCost, type TokenUsage } from '../../shared/usage';

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatTokens(usage: TokenUsage): string {
  return `${formatCount(usage.totalTokens)} tok`;
}

export function formatUsageLine(usage: TokenUsage): string {
  const parts = [`${formatCount(usage.promptTokens)} prompt`, `${formatCount(usage.completionTokens)} completion`];
  if (usage.cachedPromptTokens > 0) parts.push(`${formatCount(usage.cachedPromptTokens)} cached`);
  const cost = describeCost(usage);
  return `${formatCount(usage.totalTokens)} tokens (${parts.join(' · ')}) · ${formatCount(usage.requests)} model request${usage.requests === 1 ? '' : 's'}${cost ? ` · ${cost}` : ''}`;
}

/** One line, at most `max` characters. */
export function oneLine(value: unknown, max = 80): string {
  const text = (typeof value === 'string' ? value : JSON.stringify(value) ?? '').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function formatTime(ts: number): string {
  return new Date(ts).toISOString().replace('T', ' ').slice(0, 19);
}
