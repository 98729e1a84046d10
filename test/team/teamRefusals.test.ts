import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { describeResult, runCli } from '../cli/cliHarness';
import { freePort, sharedServices, teamTestEnv, type TeamTestEnv } from '../support/teamServices';
import { TeamClient, TeamUnreachable } from '../../runtime/team/teamClient';

/** `crewdeck server` and `crewdeck worker` refuse to start, with one clear line, when they cannot work. */
let env: TeamTestEnv;
let closedPort: number;

beforeAll(async () => {
  env = await teamTestEnv();
  closedPort = await freePort();
}, 60_000);

afterAll(async () => {
  await env?.dispose();
  await (await sharedServices()).stop();
}, 60_000);

describe('refusals', () => {
  it('PostgreSQL unreachable: server and worker exit 2 naming it (password hidden)', async () => {
    for (const command of ['server', 'worker']) {
      const result = await runCli([command, '--database', `postgres://me:secret@127.0.0.1:${closedPort}/x`, '--redis', env.redisUrl]);
      expect(result.code, describeResult(result)).toBe(2);
      expect(result.stderr).toContain(`PostgreSQL at postgres://me:***@127.0.0.1:${closedPort}/x is unreachable`);
      expect(result.stderr).not.toContain('secret');
    }
  }, 60_000);

  it('Redis unreachable: exit 2 naming it; --json answers on stdout', async () => {
    const result = await runCli(['worker', '--database', env.databaseUrl, '--redis', `redis://127.0.0.1:${closedPort}`, '--json']);
    expect(result.code, describeResult(result)).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'refused', error: expect.stringContaining(`Redis at redis://127.0.0.1:${closedPort}`) });
  }, 60_000);

  it('a schema newer than this Crewdeck, or none: refused with what to do', async () => {
    const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 1 });
    await pool.query('UPDATE crewdeck_schema SET version = version + 1');
    const newer = await runCli(['server', '--database', env.databaseUrl, '--redis', env.redisUrl]);
    expect(newer.code, describeResult(newer)).toBe(2);
    expect(newer.stderr).toMatch(/newer than this Crewdeck supports \(\d+\); upgrade Crewdeck/);
    const migrate = await runCli(['server', 'migrate', '--database', env.databaseUrl]);
    expect(migrate.code).toBe(2);
    await pool.query('DROP TABLE crewdeck_schema');
    await pool.end();
    const none = await runCli(['worker', '--database', env.databaseUrl, '--redis', env.redisUrl]);
    expect(none.code, describeResult(none)).toBe(2);
    expect(none.stderr).toContain('run `crewdeck server migrate --database <url>` first');
  }, 60_000);

  it('a client whose server does not answer fails with a clear error instead of hanging', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => undefined); // accepts and never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    try {
      const error = await new TeamClient(url, 'cdk_x', 500).request('GET', '/v1/runs').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TeamUnreachable);
      expect((error as Error).message).toBe(`the team server at ${url} did not answer within 0.5 s`);
      const cli = await runCli(['runs', 'list', '--server', `http://127.0.0.1:${closedPort}`], { env: { CREWDECK_API_KEY: 'cdk_x' } });
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain(`could not reach the team server at http://127.0.0.1:${closedPort}`);
    } finally {
      silent.close();
    }
  }, 60_000);
});
