/** Python names of an exported crew: its package, its @CrewBase class, its methods and output classes. */

/** An id as a Python identifier (other characters become `_`; a leading digit gets a `_` before it). */
export const pythonName = (id: string) => {
  const name = id.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[0-9]/.test(name) ? `_${name}` : name;
};

/** A package name for an id: lower case, `_` for other characters, `prefix` before it unless it starts with a letter. */
export function packageName(id: string, prefix: string): string {
  const pkg = id.toLowerCase().replace(/[^a-z0-9_]/g, '_').replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(pkg) ? pkg : `${prefix}${pkg}`;
}

const pascalCase = (name: string) => name.split('_').filter(Boolean).map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('');

/** The @CrewBase class of a crew package (`trip_planner` → `TripPlanner`). */
export const crewClassName = (pkg: string) => pascalCase(pkg) || 'Crew';

/** The pydantic class of a task's JSON output. */
export const outputClassName = (taskId: string) => `${pascalCase(pythonName(taskId))}Output`;
