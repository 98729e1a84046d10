/** Bad command-line usage: exit code 2 with this message. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `stubsReached`: a flow completed, but ran imported CrewAI stubs in place of some of the project's Python. */
export const EXIT = { ok: 0, runFailed: 1, badInput: 2, stubsReached: 3 } as const;

export const HELP = `crewdeck — build, run and inspect multi-agent crews and flows

Usage:
  crewdeck run <file.crew.json|file.flow.json> [--input k=v]... [--inputs JSON] [--model PROFILE] [--workspace DIR] [--json]
      [--offline RUNID]   answer every model call from that recorded run (no network)
      [--inputs-file rows.csv|rows.tsv|rows.jsonl] [--concurrency N]   the crew once per row (CSV header = input names)
      [--max-tokens N] [--max-cost X]   pause (not fail) before a model call once the run reached the cap
      [--pause-for-humans]   a task review or tool approval pauses the run (answer it later with resume) instead of asking here
  crewdeck replay <runId> --from-task <taskId> [--set-output <taskId>=<text|@file>]... [--max-tokens N] [--max-cost X] [--offline RUNID] [--workspace DIR] [--json]
  crewdeck replay <runId> --from-method <methodId> [--set-state <key>=<json|text|@file>]...   a flow, the state at that method edited
  crewdeck resume <runId> [--feedback TEXT] [--approve | --deny | --always] [--max-tokens N] [--max-cost X] [--pause-for-humans] [--offline RUNID] [--workspace DIR] [--json]
      continue a paused or interrupted flow or crew: a flow's feedback, a crew's task review (--feedback, or --approve
      to accept) or tool approval (--approve, --deny, --always), or a run paused at its budget (with a higher cap)
  crewdeck validate <file.crew.json|file.flow.json>... [--workspace DIR] [--json]   its problems and those of the workspace's crewdeck.json
  crewdeck runs list [--limit N] [--workspace DIR] [--json]
  crewdeck runs show <runId> [--workspace DIR] [--json]
  crewdeck runs events <runId> [--after SEQ] [--workspace DIR] [--json]
  crewdeck runs diff <runA> <runB> [--workspace DIR] [--json]   compare two runs task by task
  crewdeck runs cancel <runId> [--workspace DIR] [--json]   end a paused or interrupted run for good (it is not resumed)
  crewdeck batches list [--limit N] | show <batchId> | resume <batchId> | cancel <batchId>   [--workspace DIR] [--json]
      batches of --inputs-file rows (and the app's *Run for each row…*): resume runs only the rows not completed
  crewdeck serve [--port N] [--workspace DIR]     the app in your browser (browser mode)
  crewdeck memory list|search <query>|add <text> [--scope S, default /]|edit <id>|forget <id>...|reset --yes
                  [--scope S] [--category C]... [--importance 0..1] [--private] [--limit N] [--workspace DIR] [--json]
  crewdeck knowledge ingest <file|url>... [--name N] | list | remove <source>...   [--workspace DIR] [--json]
  crewdeck train <file.crew.json> -n N [--eval-model PROFILE] [--input k=v]... [--json]   review every task, then suggestions per role
  crewdeck suggestions list [crew] [--role R] | show <crew> <role> [version] | activate|disable <crew> <role> <version>
                       | rollback <crew> <role> | diff <crew> <role> <v1> <v2>
                       | edit <crew> <role> <version> (--index N --text T | --add T | --remove N)   [--workspace DIR] [--json]
  crewdeck chat <file.crew.json|file.flow.json> [--agent ID] [-m TEXT] [--input k=v]... [--json]   talk to one agent; a line a message, each reply a run
  crewdeck test <file.crew.json> -n N [--eval-model PROFILE] [--input k=v]... [--quiet] [--json]   score table per task
  crewdeck import <crewai-project-dir> [-o file.crew.json|dir] [--force] [--json]   a CrewAI project as crews, one per @CrewBase class (lists what it cannot map)
  crewdeck export <file.crew.json>... --to crewai <dir> [--force] [--json]     the crew(s) as a CrewAI project
  crewdeck trust [--workspace DIR] [--yes] [--revoke] [--json]   show what the workspace runs and sends where, then trust it

Team server (PostgreSQL + Redis; see README "Team server"):
  crewdeck server --database URL --redis URL [--port N] [--host H] [--with-worker [--concurrency N] [--memory DIR|URI]] [--webhook-allow HOST]... [--json]   the /v1 API
  crewdeck server migrate --database URL       create or update the team database's schema
  crewdeck server keys create --scope run|deploy|admin [--name N] [--rate-limit N] | list | revoke <id>   --database URL [--json]
  crewdeck server webhook-secret --database URL   the secret webhooks are signed with (HMAC-SHA256)
  crewdeck worker --database URL --redis URL [--concurrency N] [--lease-seconds S] [--memory DIR|URI] [--webhook-allow HOST]... [--json]   runs the queued runs
  crewdeck deploy <file.crew.json|file.flow.json> --server URL [--json]   publish an immutable version (key: CREWDECK_API_KEY)
  crewdeck run <file|deployment> --server URL [--input k=v]... [--detach]   run on the team server, streaming its events
  crewdeck resume <runId> --server URL [--feedback TEXT | --outcome NAME | --approve | --deny | --always] [--max-tokens N]
  crewdeck runs list|show|events --server URL [--deployment ID] [--status S] [--cursor C] [--json]   as for local runs (same --json shapes)
  crewdeck batches list|show|cancel --server URL [--json]   the server's batches, as the workspace's are printed

The workspace is the folder holding the crew file unless --workspace says otherwise; runs are kept
in <workspace>/.crewdeck/crewdeck.db. Model profiles come from <workspace>/crewdeck.json; the
openai provider reads OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL. MCP stdio servers, MCP
\${VAR}s and keys sent to a profile's own baseUrl wait until you run crewdeck trust (recorded in
$CREWDECK_CONFIG_DIR, else $XDG_CONFIG_HOME/crewdeck or ~/.config/crewdeck).

Exit codes: 0 success (or a flow paused for feedback) · 1 the run failed · 2 bad input (invalid document, missing input, unknown run)
  · 3 a flow completed but reached imported CrewAI stubs (their Python did not run; --json lists them as stubsReached)

Examples:
  crewdeck run examples/research.crew.json --input topic="solar power"
  crewdeck runs list
  crewdeck replay run_… --from-task write
`;
