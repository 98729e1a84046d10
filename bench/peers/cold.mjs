// W4, the cold start of a 1-task run: the whole process is timed from outside, so this file does only
// what a user's script would do — import the framework and run one task. Crewdeck's cold start is the
// `crewdeck run … --json` command itself (see run.mjs).
const [modulePath, baseUrl] = process.argv.slice(2);
const fw = await import(modulePath);
const out = await fw.coldOne(baseUrl);
if (!/FINAL/.test(String(out))) throw new Error(`${fw.name}: unexpected output ${JSON.stringify(String(out).slice(0, 200))}`);
process.exit(0);
