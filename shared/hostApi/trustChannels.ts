import { z } from 'zod';
import { empty, type ChannelSchemas } from './requestFields';

/** One held part of the workspace: where it is declared and what it runs, sends where, or reaches. */
export const TrustPartSchema = z.object({
  /** `network`: a model `baseUrl` of its own, or an `allowedHosts` entry / knowledge URL on a local, private or metadata host. */
  kind: z.enum(['command', 'secret', 'network']),
  /** Workspace-relative, e.g. `crewdeck.json mcp.servers.files`. */
  where: z.string(),
  /** `runs: node server.js --root .` or `sends $OPENAI_API_KEY to api.example.com`. */
  summary: z.string(),
  trusted: z.boolean(),
});
export type TrustPart = z.infer<typeof TrustPartSchema>;

export const TrustStatusSchema = z.object({
  /** Whether anything in the workspace needs trust (the examples need none). */
  needed: z.boolean(),
  /** Whether every part that needs trust is trusted. */
  trusted: z.boolean(),
  parts: z.array(TrustPartSchema),
  /** A hash of the untrusted parts: Electron's main process grants exactly what its dialog showed. */
  fingerprint: z.string().optional(),
});
export type TrustStatus = z.infer<typeof TrustStatusSchema>;

/**
 * A grant answers with the status; when a person has not confirmed it yet (the renderer alone cannot),
 * `confirmation` says what is needed: in browser mode, the code printed on the serving terminal.
 */
export const TrustGrantResponseSchema = TrustStatusSchema.extend({
  confirmation: z.object({ codeRequired: z.boolean(), message: z.string() }).optional(),
});
export type TrustGrantResponse = z.infer<typeof TrustGrantResponseSchema>;

export const TRUST_CHANNELS = {
  /**
   * Workspace trust: what in this workspace runs a command or sends a secret (MCP stdio servers, MCP
   * `${VAR}`s, keys sent to a model's or embedder's own baseUrl), and whether the user trusts exactly
   * that. Until then, runs that need those parts are refused.
   */
  'trust.status': { request: empty, response: TrustStatusSchema },
  /** Trusts the workspace's current held parts (recorded in the user's config folder, not the workspace). */
  'trust.grant': {
    request: z.object({
      /** Browser mode: the one-time code printed on the terminal that serves the app. */
      code: z.string().max(32).optional(),
      /** Set by Electron's main process after its native dialog; a renderer's own value is dropped there. */
      fingerprint: z.string().max(64).optional(),
    }),
    response: TrustGrantResponseSchema,
  },
} as const satisfies ChannelSchemas;
