import { TeamClient } from '../../team/teamClient';
import { UsageError } from '../usage';

/** Whether a command line asks for the team server (`--server URL` or `--server=URL`). */
export function wantsServer(args: readonly string[]): boolean {
  return args.some((a) => a === '--server' || a.startsWith('--server='));
}

/** The client of `--server URL`, with the key from CREWDECK_API_KEY. */
export function teamClientFor(server: string | undefined): TeamClient {
  if (!server) throw new UsageError('--server needs the team server\'s URL (http://host:8787)');
  if (!/^https?:\/\//.test(server)) throw new UsageError(`--server must be an http(s) URL, got "${server}"`);
  const key = process.env.CREWDECK_API_KEY;
  if (!key) throw new UsageError('set CREWDECK_API_KEY to your team server API key (crewdeck server keys create)');
  return new TeamClient(server, key);
}
