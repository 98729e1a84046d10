/** pyproject.toml of an exported project: the package, its `crewai run` scripts, crewai[tools] as the dependency. */
export function pyprojectToml(name: string, pkg: string, description: string | undefined): string {
  return [
    '[project]',
    `name = ${JSON.stringify(name)}`,
    'version = "0.1.0"',
    ...(description !== undefined ? [`description = ${JSON.stringify(description)}`] : []),
    'requires-python = ">=3.10,<3.14"',
    'dependencies = ["crewai[tools]>=0.150.0"]',
    '',
    '[project.scripts]',
    `${pkg} = "${pkg}.main:run"`,
    `run_crew = "${pkg}.main:run"`,
    '',
    '[build-system]',
    'requires = ["hatchling"]',
    'build-backend = "hatchling.build"',
    '',
    '[tool.crewai]',
    'type = "crew"',
    '',
  ].join('\n');
}
