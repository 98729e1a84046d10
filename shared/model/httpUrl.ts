import { z } from 'zod';

/**
 * An absolute http:// or https:// URL: where a model, an embedder or an MCP server is reached. Other
 * schemes (`file:`, `javascript:`, `data:`…) are refused when the settings are read or saved.
 */
export const HttpUrlSchema = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//i.test(value.trim()), { message: 'must be an http:// or https:// URL' });
