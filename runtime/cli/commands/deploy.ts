import { dirname, resolve } from 'node:path';
import { isBadInput } from '../../badInput';
import { collectDeployment } from '../../team/deploymentBundle';
import type { Deployment } from '../../team/deployments';
import { parseOptions } from '../options';
import { colorFor, createStyle } from '../style';
import { reportBadInput } from '../terminalStop';
import { teamClientFor } from '../team/teamCliClient';
import { reportTeamFailure } from '../team/teamFailure';
import { UsageError } from '../usage';

/**
 * `crewdeck deploy <file.crew.json|file.flow.json> --server URL [--workspace DIR] [--json]`: publishes an
 * immutable version of the document with the files it names and the workspace's settings (profiles,
 * tool settings, prices; key names only). Publishing an unchanged document returns its current version.
 */
export async function deployCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { server: { type: 'string' }, workspace: { type: 'string', short: 'w' }, json: { type: 'boolean', default: false } });
  if (positionals.length !== 1) throw new UsageError('deploy needs exactly one crew or flow file');
  const json = values.json ?? false;
  const client = teamClientFor(values.server);
  const file = resolve(positionals[0]!);
  let bundle;
  try {
    bundle = collectDeployment(values.workspace ?? dirname(file), file);
  } catch (error) {
    if (!isBadInput(error)) throw error;
    return reportBadInput(error, json, createStyle(!json && colorFor(process.stdout)));
  }
  try {
    const published = await client.request<Deployment & { version: number; created: boolean }>('POST', '/v1/deployments', bundle);
    if (json) process.stdout.write(`${JSON.stringify(published)}\n`);
    else {
      const files = Object.keys(bundle.files).length;
      process.stdout.write(`${published.created ? 'Published' : 'Unchanged:'} ${published.id} version ${published.version}${files ? ` (with ${files} file${files === 1 ? '' : 's'})` : ''} on ${client.baseUrl}\n`);
      process.stdout.write(`Run it: crewdeck run ${published.id} --server ${client.baseUrl}\n`);
    }
    return 0;
  } catch (error) {
    return reportTeamFailure(error, json);
  }
}
