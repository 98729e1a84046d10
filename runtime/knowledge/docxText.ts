/** Text of a Word (.docx) document, with mammoth (pure JS: unzips the document and reads its paragraphs). */

/** The document's paragraphs as plain text. Throws when the bytes are not a .docx file. */
export async function docxToText(bytes: Uint8Array): Promise<string> {
  // mammoth is CommonJS, loaded when a .docx is first read.
  const module = (await import('mammoth')) as unknown as { default?: MammothApi } & MammothApi;
  const mammoth = module.default ?? module;
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
  return value.replace(/\n{3,}/g, '\n\n').trim();
}

interface MammothApi {
  extractRawText(input: { buffer: Buffer }): Promise<{ value: string }>;
}
