import type { Dispatch, SetStateAction } from 'react';
import type { CrewInput } from '../crewInputs';
import { BatchInputsTable } from './BatchInputsTable';
import { BatchRowSources } from './BatchRowSources';
import type { TableRow } from './batchTable';

/** The batch form's body: how rows are given, the table of rows, and + Add row. */
export function BatchRowsEditor(props: { inputs: CrewInput[]; rows: TableRow[]; setRows: Dispatch<SetStateAction<TableRow[]>>; onText(text: string, source: string, fileName?: string): void }) {
  const { inputs, rows, setRows } = props;
  return (
    <div className="batch-edit">
      <div className="dialog-hint">
        One run per row. Paste rows copied from a spreadsheet, CSV or JSON lines — the first line names the inputs — or load a file. An empty cell uses the input’s default.
      </div>
      <BatchRowSources inputs={inputs} onText={props.onText} />
      {inputs.length === 0 ? (
        <div className="dialog-hint">This crew takes no inputs: each row is one more run of it as it is.</div>
      ) : null}
      <BatchInputsTable inputs={inputs} rows={rows} setRows={setRows} />
      <button className="btn ghost batch-add" data-testid="batch-add-row" onClick={() => setRows([...rows, inputs.map(() => '')])}>
        + Add row
      </button>
    </div>
  );
}
