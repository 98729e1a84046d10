/**
 * Text of an XML document for search: one line per element that holds text, as `path.to.element: text`
 * (attributes as `element@name: value`), so a chunk keeps what each value is. Parsed with linkedom's
 * XML parser (no DTDs, no external entities: it never reads another file or URL).
 */
export async function xmlToText(xml: string): Promise<string> {
  const { DOMParser } = await import('linkedom');
  const document = new DOMParser().parseFromString(xml, 'text/xml');
  const root = document.documentElement;
  if (!root) throw new Error('no root element');
  const lines: string[] = [];
  const visit = (element: XmlElement, path: string) => {
    const name = element.localName || element.tagName;
    const here = path ? `${path}.${name}` : name;
    for (const attribute of [...element.attributes]) if (attribute.value.trim()) lines.push(`${here}@${attribute.name}: ${attribute.value.trim()}`);
    const own = [...element.childNodes]
      .filter((n) => n.nodeType === 3 || n.nodeType === 4)
      .map((n) => n.textContent ?? '')
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
    if (own) lines.push(`${here}: ${own}`);
    for (const child of [...element.children]) visit(child, here);
  };
  visit(root as XmlElement, '');
  return lines.join('\n');
}

/** The part of a parsed element this reads (linkedom's types are the DOM's, which the runtime does not load). */
interface XmlElement {
  localName: string;
  tagName: string;
  attributes: Iterable<{ name: string; value: string }>;
  childNodes: Iterable<{ nodeType: number; textContent: string | null }>;
  children: Iterable<XmlElement>;
}
