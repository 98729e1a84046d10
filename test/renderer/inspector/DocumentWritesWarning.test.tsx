// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { setHost } from '../../../renderer/host/hostContext';
import { ToolRefsEditor } from '../../../renderer/panels/inspector/ToolRefsEditor';
import { FakeHost } from '../run/fakeHost';

afterEach(cleanup);

it('warns under a write_file whose config sets allowDocumentWrites: true, and only then', () => {
  setHost(new FakeHost({}));
  const { rerender } = render(<ToolRefsEditor path="agents.0.tools" value={[{ tool: 'write_file', config: { allowDocumentWrites: true } }]} onChange={() => {}} />);
  expect(screen.getByRole('alert').textContent).toMatch(/Warning: allowDocumentWrites lets this tool rewrite crewdeck\.json, crews, flows/);
  rerender(<ToolRefsEditor path="agents.0.tools" value={[{ tool: 'write_file', config: { allowDocumentWrites: false } }]} onChange={() => {}} />);
  expect(screen.queryByText(/allowDocumentWrites lets/)).toBeNull();
});
