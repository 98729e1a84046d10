/** Text of a PDF, with unpdf (a serverless build of Mozilla's PDF.js: pure JS, no native code, no network). */

/** The text of every page, pages separated by a blank line. Throws when the bytes are not a readable PDF. */
export async function pdfToText(bytes: Uint8Array): Promise<string> {
  const { getDocumentProxy, extractText } = await import('unpdf');
  // PDF.js may take ownership of the buffer it is given, so it gets a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return text
      .map((page) => page.trim())
      .filter((page) => page !== '')
      .join('\n\n');
  } finally {
    await pdf.destroy();
  }
}
