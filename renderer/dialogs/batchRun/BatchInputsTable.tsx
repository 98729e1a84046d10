import type { Dispatch, SetStateAction } from 'react';
import type { CrewInput } from '../crewInputs';
import type { TableRow } from './batchTable';

/** The rows to run, one column per crew input (its default as the placeholder), each row removable. */
export function BatchInputsTable({ inputs, rows, setRows }: { inputs: CrewInput[]; rows: TableRow[]; setRows: Dispatch<SetStateAction<TableRow[]>> }) {
  const setCell = (r: number, c: number, value: string) => setRows((current) => current.map((row, i) => (i === r ? row.map((cell, j) => (j === c ? value : cell)) : row)));

  return (
    <div className="batch-table-wrap">
      <table className="batch-table" data-testid="batch-table">
        <thead>
          <tr>
            <th className="batch-num">#</th>
            {inputs.map((input) => (
              <th key={input.name} title={input.description}>
                <code>{input.name}</code>
                {input.default === undefined ? <span className="dialog-required">required</span> : <span className="batch-default">default: {input.default}</span>}
              </th>
            ))}
            <th className="batch-remove-col" />
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r} data-testid="batch-row">
              <td className="batch-num">{r + 1}</td>
              {inputs.map((input, c) => (
                <td key={input.name}>
                  <input
                    className="batch-cell"
                    aria-label={`Row ${r + 1}, ${input.name}`}
                    data-testid={`batch-cell-${r}-${input.name}`}
                    value={row[c] ?? ''}
                    placeholder={input.default}
                    onChange={(e) => setCell(r, c, e.target.value)}
                  />
                </td>
              ))}
              <td className="batch-remove-col">
                <button className="btn ghost" aria-label={`Remove row ${r + 1}`} data-testid="batch-remove-row" onClick={() => setRows(rows.filter((_, i) => i !== r))}>
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
