import type { CrewDocument } from '../../../shared/model/crew';
import { pyQuote } from '../pythonSource';
import { oneLine } from './safeText';

/** A crew as main.py names it: its document, its package and its @CrewBase class. */
export interface MainPyCrew {
  readonly doc: CrewDocument;
  readonly pkg: string;
  readonly className: string;
}

/** main.py of a one-crew project: the crew kicked off with its inputs (defaults as literals, else asked for). */
export function crewMainPy(crew: MainPyCrew): string {
  const inputs = crew.doc.inputs ?? [];
  const lines = inputs.map((input) => {
    const value = input.default !== undefined ? pyQuote(input.default) : `input(${pyQuote(`${input.name}: `)})`;
    const comment = input.description ? `  # ${oneLine(input.description)}` : '';
    return `        ${pyQuote(input.name)}: ${value},${comment}`;
  });
  return [
    '#!/usr/bin/env python',
    `"""Runs the "${crew.doc.name.replace(/"/g, "'")}" crew (exported by Crewdeck)."""`,
    `from ${crew.pkg}.crew import ${crew.className}`,
    '',
    '',
    'def run():',
    '    inputs = {',
    ...lines,
    '    }',
    `    ${crew.className}().crew().kickoff(inputs=inputs)`,
    '',
    '',
    'if __name__ == "__main__":',
    '    run()',
    '',
  ].join('\n');
}

/** main.py of a several-crew project: each crew kicked off in turn with its inputs (defaults as literals). */
export function severalCrewsMainPy(pkg: string, writers: MainPyCrew[]): string {
  const lines = ['#!/usr/bin/env python', `"""Runs ${writers.length} crews one after another (exported by Crewdeck)."""`];
  for (const w of writers) lines.push(`from ${pkg}.crews.${w.pkg}.crew import ${w.className}`);
  lines.push('', '', 'def run():');
  for (const w of writers) {
    if (w.doc.description) lines.push(`    # ${oneLine(`${w.doc.name}: ${w.doc.description}`)}`);
    const inputs = (w.doc.inputs ?? []).map((input) => `${pyQuote(input.name)}: ${input.default !== undefined ? pyQuote(input.default) : `input(${pyQuote(`${input.name}: `)})`}`);
    lines.push(`    ${w.className}().crew().kickoff(inputs={${inputs.join(', ')}})`);
  }
  lines.push('', '', 'if __name__ == "__main__":', '    run()', '');
  return lines.join('\n');
}
