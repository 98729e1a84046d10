/** One item of an MCP tool result's `content` (the SDK's shapes, loosely typed: servers vary). */
interface ContentItem {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/**
 * An MCP `tools/call` result as observation text: text items as they are, other content summarised
 * (images, audio and binary resources are not passed to the model). `structuredContent` is used when
 * there is no content at all.
 */
export function resultText(result: { content?: unknown; structuredContent?: unknown; toolResult?: unknown }): string {
  const content = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
  const parts = content.map(describeItem);
  if (parts.length > 0) return parts.join('\n');
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  if (result.toolResult !== undefined) return typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult);
  return '(the tool returned no content)';
}

function describeItem(item: ContentItem): string {
  switch (item.type) {
    case 'text':
      return item.text ?? '';
    case 'image':
    case 'audio':
      return `[${item.type} ${item.mimeType ?? 'of unknown type'}, ${approxBytes(item.data)} — not shown]`;
    case 'resource': {
      const r = item.resource ?? {};
      if (typeof r.text === 'string') return r.text;
      return `[resource ${r.uri ?? '(no uri)'}${r.mimeType ? ` (${r.mimeType})` : ''}, ${approxBytes(r.blob)} of binary data — not shown]`;
    }
    case 'resource_link':
      return `[resource link ${item.name ? `"${item.name}" ` : ''}${item.uri ?? ''}]`;
    default:
      return `[${item.type} content — not shown]`;
  }
}

function approxBytes(base64: string | undefined): string {
  const bytes = base64 ? Math.floor((base64.length * 3) / 4) : 0;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}
