import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { CrewDocumentSchema } from '../../shared/model/crew';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { WorkspaceSettingsSchema, type WorkspaceSettings } from '../../shared/model/workspace';
import { problemsFromZod } from '../../shared/model/problems';
import { flowSchemaProblems } from '../document/schemaProblems';
import { inTransaction } from '../store/postgresTransaction';
import type { DeploymentBundle } from './deploymentBundle';
import { TeamBadRequest, TeamConflict, TeamNotFound } from './teamErrors';

export interface DeploymentVersion {
  version: number;
  digest: string;
  documentPath: string;
  inputs: unknown[];
  createdAt: number;
}

export interface Deployment {
  id: string;
  kind: 'crew' | 'flow';
  name: string;
  latestVersion: number;
  createdAt: number;
  updatedAt: number;
  versions?: DeploymentVersion[];
}

/** A published version with everything a worker needs to run it. */
export interface DeploymentContent {
  deploymentId: string;
  version: number;
  kind: 'crew' | 'flow';
  documentPath: string;
  document: unknown;
  files: Record<string, string>;
  settings?: WorkspaceSettings;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** Checks a bundle as the server receives it: a valid crew or flow, a safe id, valid settings and file paths. */
function checkBundle(bundle: DeploymentBundle): { kind: 'crew' | 'flow'; id: string; name: string; inputs: unknown[] } {
  const doc = bundle.document as { kind?: unknown; id?: unknown } | null;
  if (typeof bundle.documentPath !== 'string' || !/\.(crew|flow)\.json$/.test(bundle.documentPath) || bundle.documentPath.split('/').includes('..')) {
    throw new TeamBadRequest('documentPath must be a relative *.crew.json or *.flow.json path', 'documentPath');
  }
  const kind = doc?.kind === 'flow' ? 'flow' : doc?.kind === 'crew' ? 'crew' : undefined;
  if (!kind) throw new TeamBadRequest('document.kind must be "crew" or "flow"', 'document.kind');
  const parsed = kind === 'crew' ? CrewDocumentSchema.safeParse(bundle.document) : FlowDocumentSchema.safeParse(bundle.document);
  if (!parsed.success) {
    const first = problemsFromZod(parsed.error)[0];
    throw new TeamBadRequest(`the document is not valid: ${first?.path ?? ''}: ${first?.message ?? ''}`, `document${first?.path ? `.${first.path}` : ''}`);
  }
  if (kind === 'flow') {
    const problem = flowSchemaProblems(parsed.data as never)[0];
    if (problem) throw new TeamBadRequest(`the document is not valid: ${problem.path}: ${problem.message}`, `document.${problem.path}`);
  }
  if (typeof doc?.id !== 'string' || !ID.test(doc.id)) throw new TeamBadRequest('document.id must be letters, digits, "_", "." or "-" (at most 100)', 'document.id');
  for (const [path, text] of Object.entries(bundle.files ?? {})) {
    if (typeof text !== 'string' || path.startsWith('/') || path.split('/').includes('..') || path.includes('\\')) throw new TeamBadRequest(`files: "${path}" is not a relative path inside the workspace`, `files.${path}`);
  }
  if (bundle.settings !== undefined) {
    const settings = WorkspaceSettingsSchema.safeParse(bundle.settings);
    if (!settings.success) throw new TeamBadRequest(`settings are not valid: ${problemsFromZod(settings.error)[0]?.message ?? ''}`, 'settings');
  }
  const data = parsed.data as { name: string; inputs?: unknown[] };
  return { kind, id: doc.id, name: data.name, inputs: data.inputs ?? [] };
}

function digestOf(bundle: DeploymentBundle): string {
  const files = Object.fromEntries(Object.entries(bundle.files ?? {}).sort(([a], [b]) => a.localeCompare(b)));
  return createHash('sha256').update(JSON.stringify([bundle.documentPath, bundle.document, files, bundle.settings ?? null])).digest('hex');
}

/**
 * Publishes a bundle as the deployment's next version (immutable). Publishing what the latest version
 * already is returns that version (`created: false`) instead of a copy.
 */
export async function publishDeployment(pool: Pool, bundle: DeploymentBundle, keyId: string | undefined): Promise<{ deployment: Deployment; version: number; created: boolean }> {
  const { kind, id, name, inputs } = checkBundle(bundle);
  const digest = digestOf(bundle);
  const now = Date.now();
  const { version, created } = await inTransaction(pool, async (client) => {
    await client.query('INSERT INTO deployments (id, kind, name, latest_version, created_at, updated_at) VALUES ($1, $2, $3, 0, $4, $4) ON CONFLICT (id) DO NOTHING', [id, kind, name, now]);
    const current = (await client.query<{ kind: string; latest_version: number }>('SELECT kind, latest_version FROM deployments WHERE id = $1 FOR UPDATE', [id])).rows[0]!;
    if (current.kind !== kind) throw new TeamConflict(`deployment "${id}" is a ${current.kind}; a ${kind} cannot be published under the same id`);
    const latest = (await client.query<{ digest: string }>('SELECT digest FROM deployment_versions WHERE deployment_id = $1 AND version = $2', [id, current.latest_version])).rows[0];
    let version = current.latest_version;
    const created = latest?.digest !== digest;
    if (created) {
      version += 1;
      await client.query(
        `INSERT INTO deployment_versions (deployment_id, version, digest, document_path, document, files, settings, inputs, created_at, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [id, version, digest, bundle.documentPath, JSON.stringify(bundle.document), JSON.stringify(bundle.files ?? {}), bundle.settings ? JSON.stringify(bundle.settings) : null, JSON.stringify(inputs), now, keyId ?? null],
      );
      await client.query('UPDATE deployments SET latest_version = $2, name = $3, updated_at = $4 WHERE id = $1', [id, version, name, now]);
    }
    return { version, created };
  });
  return { deployment: (await getDeployment(pool, id))!, version, created };
}

type DeploymentRow = { id: string; kind: 'crew' | 'flow'; name: string; latest_version: number; created_at: number; updated_at: number };

function toDeployment(row: DeploymentRow): Deployment {
  return { id: row.id, kind: row.kind, name: row.name, latestVersion: row.latest_version, createdAt: row.created_at, updatedAt: row.updated_at };
}

export async function listDeployments(pool: Pool): Promise<Deployment[]> {
  const rows = await pool.query<DeploymentRow>('SELECT * FROM deployments ORDER BY updated_at DESC, id');
  return rows.rows.map(toDeployment);
}

/** A deployment with its versions (newest first) and each version's inputs. */
export async function getDeployment(pool: Pool, id: string): Promise<Deployment | undefined> {
  const row = (await pool.query<DeploymentRow>('SELECT * FROM deployments WHERE id = $1', [id])).rows[0];
  if (!row) return undefined;
  const versions = await pool.query<{ version: number; digest: string; document_path: string; inputs: unknown[]; created_at: number }>(
    'SELECT version, digest, document_path, inputs, created_at FROM deployment_versions WHERE deployment_id = $1 ORDER BY version DESC',
    [id],
  );
  return { ...toDeployment(row), versions: versions.rows.map((v) => ({ version: v.version, digest: v.digest, documentPath: v.document_path, inputs: v.inputs, createdAt: v.created_at })) };
}

/** A version's content (the latest when `version` is undefined); TeamNotFound when there is none. */
export async function deploymentContent(pool: Pool, id: string, version?: number): Promise<DeploymentContent> {
  const result = await pool.query<{ kind: 'crew' | 'flow'; version: number; document_path: string; document: unknown; files: Record<string, string>; settings: WorkspaceSettings | null }>(
    `SELECT d.kind, v.version, v.document_path, v.document, v.files, v.settings FROM deployments d
     JOIN deployment_versions v ON v.deployment_id = d.id AND v.version = COALESCE($2, d.latest_version) WHERE d.id = $1`,
    [id, version ?? null],
  );
  const row = result.rows[0];
  if (!row) throw new TeamNotFound(version === undefined ? `no deployment "${id}"` : `deployment "${id}" has no version ${version}`);
  return { deploymentId: id, version: row.version, kind: row.kind, documentPath: row.document_path, document: row.document, files: row.files, ...(row.settings ? { settings: row.settings } : {}) };
}
