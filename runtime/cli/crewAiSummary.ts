import type { UnmappedItem } from '../crewai/unmapped';
import type { Style } from './style';

/** The "not imported" / "not exported" list: where, what, and why, one item per block. */
export function formatUnmapped(title: string, items: UnmappedItem[], style: Style): string {
  if (items.length === 0) return `${style.green('✓')} ${title}: nothing — every setting was carried over\n`;
  const lines = [`${style.yellow('!')} ${style.bold(`${title} (${items.length})`)}:`];
  for (const item of items) {
    lines.push(`  ${style.dim(item.path)}  ${item.item}`, `      ${item.why}`);
  }
  return `${lines.join('\n')}\n`;
}
