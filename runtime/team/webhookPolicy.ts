import { classifyHostName } from '../tools/addressPolicy';
import { hostListed } from '../tools/guardedFetch';

/**
 * Where a run's webhook may be sent. A webhook URL comes from whoever holds an API key, and the workers
 * that send it sit inside the team's network: without this, a key could make a worker POST to its
 * database, Redis, a cloud metadata service or anything else only the workers reach. So a webhook
 * reaches public addresses only (runtime/tools/addressPolicy.ts decides which those are), unless its
 * host is in the server's `--webhook-allow` list (`CREWDECK_WEBHOOK_ALLOWED_HOSTS`): an exact name,
 * `host:port` or `*.example.com`, allowed whatever it resolves to.
 *
 * Checked twice: when the URL is given (a literal address or a refused name such as `localhost` is a 400
 * naming `webhook.url`), and at every delivery (guardedFetch resolves the name, checks every address and
 * connects only to those: a name that resolves to a private address is refused there, and the run's
 * webhook stops with the reason stored).
 */
export interface WebhookPolicy {
  /** Hosts a webhook may reach whatever their address (`host`, `host:port`, `*.suffix`). */
  allowedHosts: readonly string[];
}

/** The list from `CREWDECK_WEBHOOK_ALLOWED_HOSTS` (comma- or space-separated) and `--webhook-allow` flags. */
export function webhookPolicyFrom(flags: readonly string[] | undefined, env: NodeJS.ProcessEnv = process.env): WebhookPolicy {
  const fromEnv = (env.CREWDECK_WEBHOOK_ALLOWED_HOSTS ?? '').split(/[\s,]+/).filter(Boolean);
  return { allowedHosts: [...fromEnv, ...(flags ?? [])].map((h) => h.trim()).filter(Boolean) };
}

/**
 * Why `url` may not be a webhook before anything is resolved (undefined when it may): a host that is itself
 * a loopback, private, link-local, metadata… address or name and is not allowed by the policy.
 */
export function webhookUrlProblem(url: string, policy: WebhookPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `a webhook must be an http or https URL, got ${parsed.protocol}`;
  if (parsed.username || parsed.password) return 'a webhook URL must not carry a user name or password';
  if (hostListed(parsed, policy.allowedHosts)) return undefined;
  const verdict = classifyHostName(parsed.hostname);
  if (!verdict) return undefined;
  const article = /^[aeiou]/.test(verdict.refused) ? 'an' : 'a';
  return `${parsed.host} is ${article} ${verdict.refused} address; webhooks reach public addresses only, unless the server allows the host (crewdeck server --webhook-allow ${parsed.host}, or CREWDECK_WEBHOOK_ALLOWED_HOSTS)`;
}
