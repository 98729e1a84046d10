import type { Discovery } from '../construct/findCrews';
import type { InstVal } from '../construct/values';
import { baseName } from '../construct/valueOps';
import type { MapContext } from './mapContext';

const HOOKS: Record<string, string> = {
  before_kickoff: 'Python code run before kickoff cannot run in Crewdeck; prepare the inputs before the run instead',
  after_kickoff: 'Python code run after kickoff cannot run in Crewdeck; a flow can post-process the crew output',
  callback: 'a Python callback cannot run in Crewdeck',
  cache_handler: 'Crewdeck caches tool results itself (agent setting cache)',
};

/**
 * What each @CrewBase class of an imported crew has that the crew does not carry: its kickoff hooks,
 * and YAML entries no @agent / @task method loads (CrewAI leaves them out of the crew too).
 */
export function crewBaseNotes(ctx: MapContext, found: Discovery): void {
  const owners = new Set<InstVal>();
  for (const one of found.crews) if (one.owner) owners.add(one.owner);
  const seenFiles = new Set<string>();
  for (const owner of owners) {
    for (const s of owner.cls.def.body) {
      if (s.k !== 'def') continue;
      for (const d of s.decorators) {
        const name = baseName(d.k === 'call' ? d.fn : d);
        if (name && HOOKS[name]) ctx.note(`${owner.cls.mod.file}:${s.line}`, `@${name} ${s.name}`, HOOKS[name]);
      }
    }
    for (const [attr, kind] of [['#agents_config', 'agent'], ['#tasks_config', 'task']] as const) {
      const config = owner.memo.get(attr);
      if (config?.t !== 'dict' || !config.yaml || seenFiles.has(config.yaml)) continue;
      seenFiles.add(config.yaml);
      const used = new Set([...owners].flatMap((o) => [...o.memo.values()]).flatMap((v) => (v.t === 'obj' ? [v.args.kw.get('config')] : [])));
      for (const [key, entry] of config.entries) {
        if (used.has(entry)) continue;
        ctx.note(`${config.yaml}:${entry.t === 'dict' ? entry.at?.line ?? 1 : 1}`, `${kind} "${key}"`, `no @${kind} method of ${owner.cls.name} uses it, so the CrewAI crew does not include it either`);
      }
    }
  }
}
