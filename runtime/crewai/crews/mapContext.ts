import { existsSync, statSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { InlineModel } from '../../../shared/model/modelRef';
import type { Evaluator } from '../construct/evaluator';
import type { InputVal, Loc, ObjVal, Val } from '../construct/values';
import { insideProject } from '../findProject';
import type { ProjectSource } from '../project/projectSource';
import type { UnmappedItem } from '../unmapped';

/** What an import produces besides documents: model profiles, files to bring along, the project's own Python tools. */
export interface ImportExtras {
  unmapped: UnmappedItem[];
  /** Model profiles for the output workspace's crewdeck.json, by name. */
  profiles: Map<string, InlineModel>;
  /** Files to copy: workspace-relative path → absolute source file in the project. */
  files: Map<string, string>;
  /** The project's own Python tools: dotted module → the tools' Python identifiers. */
  pythonTools: Map<string, Set<string>>;
  /** Project files read, relative to the project folder. */
  sourceFiles: Set<string>;
}

export function emptyExtras(): ImportExtras {
  return { unmapped: [], profiles: new Map(), files: new Map(), pythonTools: new Map(), sourceFiles: new Set() };
}

/** A setting of an Agent/Task/Crew: a keyword argument (which wins) or its YAML config's entry. */
export interface Setting {
  value: Val;
  from: 'code' | 'yaml';
  /** `file:line` of the keyword argument's call or the YAML entry. */
  at: string;
}

/** Shared by the mappings of one project: where to note what is not carried over, and what else to write. */
export class MapContext {
  constructor(
    readonly src: ProjectSource,
    readonly ev: Evaluator,
    readonly out: ImportExtras,
  ) {}

  note(at: string, item: string, why: string): void {
    if (!this.out.unmapped.some((u) => u.path === at && u.item === item && u.why === why)) this.out.unmapped.push({ path: at, item, why });
  }

  where(loc: Loc | undefined): string {
    return loc ? `${loc.file}:${loc.line}` : 'the project';
  }

  /** The `config=` mapping an object was made with (a YAML entry), if any. */
  config(obj: ObjVal): Extract<Val, { t: 'dict' }> | undefined {
    const c = obj.args.kw.get('config');
    return c?.t === 'dict' ? c : undefined;
  }

  /** A setting: the keyword argument when given (CrewAI lets it override the config), else the config's entry. */
  setting(obj: ObjVal, field: string): Setting | undefined {
    const kw = obj.args.kw.get(field);
    if (kw !== undefined) return { value: kw, from: 'code', at: this.where(obj.at) };
    const config = this.config(obj);
    const v = config?.entries.get(field);
    if (v !== undefined && config) return { value: v, from: 'yaml', at: this.where(config.at ?? obj.at) };
    return undefined;
  }

  /** Registers a model profile and returns its name: the model string, numbered when another profile already has it. */
  profile(name: string, model: InlineModel): string {
    const same = (a: InlineModel) => JSON.stringify(a) === JSON.stringify(model);
    let candidate = name;
    for (let n = 2; this.out.profiles.has(candidate) && !same(this.out.profiles.get(candidate)!); n += 1) candidate = `${name}-${n}`;
    this.out.profiles.set(candidate, model);
    return candidate;
  }

  /**
   * A data file of the project the imported documents use: copied into the workspace at the path it
   * has in the project (so `knowledge/x.pdf` and `data/leads.csv` resolve as they do for CrewAI, which
   * runs from the project folder). Undefined when the file is missing or outside the project.
   */
  bringAlong(abs: string): string | undefined {
    if (!existsSync(abs) || !statSync(abs).isFile() || !insideProject(this.src.root, abs)) return undefined;
    const rel = relative(this.src.root, abs).split(sep).join('/');
    this.out.files.set(rel, abs);
    return rel;
  }

  rel(abs: string): string {
    return relative(this.src.root, abs).split(sep).join('/');
  }
}

/** The inputs a crew's text names, in order, with what the code knows of each (a prompt, the expression giving it). */
export type CrewInputs = Map<string, InputVal | undefined>;
