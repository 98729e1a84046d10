import type { KnowledgeSource } from '../../../shared/model/crew';
import { pyQuote } from '../pythonSource';

/** What the knowledge code reports to and copies through: the project writer. */
export interface KnowledgeWriter {
  skip(path: string, item: string, why: string): void;
  copyAlong(path: string): void;
}

/** crewai.knowledge.source.<module> of each knowledge source class the exporter writes. */
const KNOWLEDGE_MODULES: Record<string, string> = {
  PDFKnowledgeSource: 'pdf_knowledge_source',
  CSVKnowledgeSource: 'csv_knowledge_source',
  JSONKnowledgeSource: 'json_knowledge_source',
  TextFileKnowledgeSource: 'text_file_knowledge_source',
  StringKnowledgeSource: 'string_knowledge_source',
};

/** The knowledge sources of crew.py, with the classes it imports and the module-level variables it declares. */
export class KnowledgeCode {
  readonly classes = new Set<string>();
  /** Module-level `name = StringKnowledgeSource(...)` lines: a text source keeps its name as the variable. */
  readonly vars: string[] = [];

  constructor(private readonly writer: KnowledgeWriter) {}

  /**
   * Knowledge sources as CrewAI objects: files of the workspace's knowledge/ folder (CrewAI reads file
   * sources from the project's knowledge/ folder) and text; anything else is listed in the summary.
   */
  code(sources: KnowledgeSource[] | undefined, path: string): string[] {
    const out: string[] = [];
    (sources ?? []).forEach((source, i) => {
      if (source.type === 'text') {
        this.classes.add('StringKnowledgeSource');
        const call = `StringKnowledgeSource(content=${pyQuote(source.text)})`;
        if (/^[A-Za-z_]\w*$/.test(source.name) && !this.vars.some((v) => v.startsWith(`${source.name} =`))) {
          this.vars.push(`${source.name} = ${call}`);
          out.push(source.name);
        } else {
          out.push(call);
          this.writer.skip(`${path}.${i}.name`, source.name, 'CrewAI string sources have no name (only a Python variable name can carry one)');
        }
        return;
      }
      if (source.type === 'file' && /^knowledge\//.test(source.path)) {
        const className = /\.pdf$/i.test(source.path) ? 'PDFKnowledgeSource' : /\.csv$/i.test(source.path) ? 'CSVKnowledgeSource' : /\.json$/i.test(source.path) ? 'JSONKnowledgeSource' : 'TextFileKnowledgeSource';
        this.classes.add(className);
        out.push(`${className}(file_paths=[${pyQuote(source.path.slice('knowledge/'.length))}])`);
        this.writer.copyAlong(source.path);
        if (source.name !== undefined) this.writer.skip(`${path}.${i}.name`, source.name, 'CrewAI file sources are named by their file');
        return;
      }
      this.writer.skip(
        `${path}.${i}`,
        JSON.stringify(source),
        source.type === 'url' ? 'CrewAI reads web pages through a crewai_tools RAG tool, not a knowledge source; add it by hand' : 'CrewAI file sources live in the project\'s knowledge/ folder; move the file under knowledge/ in the workspace',
      );
    });
    return out;
  }

  /** The import lines of the knowledge source classes used. */
  importLines(): string[] {
    return [...this.classes].sort().map((c) => `from crewai.knowledge.source.${KNOWLEDGE_MODULES[c]} import ${c}`);
  }
}
