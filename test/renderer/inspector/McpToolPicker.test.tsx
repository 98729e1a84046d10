// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { setHost } from '../../../renderer/host/hostContext';
import { ToolRefsEditor } from '../../../renderer/panels/inspector/ToolRefsEditor';
import { FakeHost } from '../run/fakeHost';

afterEach(cleanup);

let latest: unknown;
function Harness({ initial }: { initial: Record<string, unknown>[] }) {
  const [value, setValue] = useState<unknown>(initial);
  latest = value;
  return <ToolRefsEditor path="agents.0.tools" value={value} onChange={setValue} />;
}

it('offers the MCP tools tools.list reports; checking one adds its ref and shows its options', async () => {
  const host = new FakeHost({
    'tools.list': () => ({
      tools: [
        { name: 'calculator', description: 'Evaluate arithmetic', parameters: { type: 'object' }, source: 'builtin' },
        { name: 'mcp:fs/list_directory', description: 'Get a detailed listing. Only works within allowed directories.', parameters: { type: 'object' }, source: 'mcp', server: 'fs' },
        { name: 'mcp:fs/read_text_file', description: 'Read a file.', parameters: { type: 'object' }, source: 'mcp', server: 'fs' },
      ],
      servers: [{ name: 'fs', toolCount: 2 }],
    }),
  });
  setHost(host);
  render(<Harness initial={[{ tool: 'mcp:fs/read_text_file' }]} />);
  const box = (await screen.findByTestId('tool-mcp:fs/list_directory')) as HTMLInputElement;
  expect(box.checked).toBe(false);
  // Only the first sentence shows; the whole description is the tooltip.
  expect(screen.getByText('Get a detailed listing.').getAttribute('title')).toBe('Get a detailed listing. Only works within allowed directories.');
  // A tool already in the list is not offered again (it shows with its options instead).
  expect(screen.queryByTestId('tool-mcp:fs/read_text_file')).toBeNull();
  expect(screen.getByRole('button', { name: 'Remove mcp:fs/read_text_file' })).toBeTruthy();

  fireEvent.click(box);
  expect(latest).toEqual([{ tool: 'mcp:fs/read_text_file' }, { tool: 'mcp:fs/list_directory' }]);
  expect(screen.queryByTestId('tool-mcp:fs/list_directory')).toBeNull();
  expect(screen.getByRole('button', { name: 'Remove mcp:fs/list_directory' })).toBeTruthy();
  expect(host.callsTo('tools.list')).toHaveLength(1);
});

it('shows only the built-ins when tools.list fails', async () => {
  let fail!: (error: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => undefined);
  const host = new FakeHost({ 'tools.list': () => failed });
  setHost(host);
  render(<Harness initial={[]} />);
  expect(await screen.findByTestId('tool-calculator')).toBeTruthy();
  await vi.waitFor(() => expect(host.callsTo('tools.list')).toHaveLength(1));
  // The answer is a failure; what the picker does with it is promise callbacks only, all run before
  // the next turn of the event loop, which act() waits for and then renders.
  await act(async () => {
    fail(new Error('the MCP servers could not be listed'));
    await failed.catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
  });
  expect(screen.getByTestId('tool-calculator')).toBeTruthy();
  expect(screen.queryByText(/mcp:/)).toBeNull();
});
