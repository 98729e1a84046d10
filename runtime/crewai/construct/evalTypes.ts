import type { PyCall, PyClass, PyDef, PyExpr, PyModule } from '../python/pyAst';
import type { ProjectSource } from '../project/projectSource';
import type { EvalRecord, Frame } from './frames';
import type { ClassRef, InstVal, Loc, ObjVal, Val } from './values';

/**
 * The evaluator as its parts see it (construct/evaluator.ts implements it): the parts call each other
 * through this interface, so none of them imports another's module.
 */
export interface Ev {
  readonly src: ProjectSource;
  readonly record: EvalRecord;
  readonly yamlErrors: Error[];
  newId(): number;
  tick(): boolean;
  loc(mod: PyModule, node: { line: number; col?: number }): Loc;
  expr(frame: Frame, e: PyExpr): Val;
  call(frame: Frame, e: PyCall): Val;
  attr(frame: Frame, v: Val, name: string, e: PyExpr): Val;
  assign(frame: Frame, target: PyExpr, value: Val): void;
  lookup(frame: Frame, name: string, at: PyExpr): Val;
  moduleGlobals(mod: PyModule): Map<string, Val>;
  callFunction(fn: Extract<Val, { t: 'func' }>, pos: Val[], kw: Map<string, Val>, caller: Frame): Val;
  instantiate(cls: ClassRef, pos: Val[], kw: Map<string, Val>, caller: Frame): InstVal;
  method(cls: ClassRef, name: string): Extract<Val, { t: 'func' }> | undefined;
  bases(cls: ClassRef): ClassRef[];
  baseNames(cls: ClassRef): string[];
  classAttr(cls: ClassRef, name: string): Val | undefined;
  isDecorated(def: PyDef | PyClass, name: string): boolean;
  made(obj: ObjVal): ObjVal;
}
