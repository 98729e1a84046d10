// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../../shared/model/problems';
import { ToolRefSchema } from '../../../shared/model/tool';
import { setHost } from '../../../renderer/host/hostContext';
import { ProblemsContext } from '../../../renderer/panels/inspector/problemsContext';
import { ToolRefsEditor } from '../../../renderer/panels/inspector/ToolRefsEditor';
import { FakeHost } from '../run/fakeHost';

let latest: Record<string, unknown>[] = [];

function Editor({ initial, problems = [] }: { initial: Record<string, unknown>[]; problems?: Problem[] }) {
  const [value, setValue] = useState(initial);
  return (
    <ProblemsContext.Provider value={problems}>
      <ToolRefsEditor
        path="agents.0.tools"
        value={value}
        onChange={(v) => {
          latest = v;
          setValue(v);
        }}
      />
    </ProblemsContext.Provider>
  );
}

beforeEach(() => {
  latest = [];
  setHost(new FakeHost({ 'tools.list': () => ({ tools: [], servers: [] }) }));
});
afterEach(cleanup);

describe('the tool picker’s settings forms', () => {
  it('web_search: provider, results, base URL; another provider drops the settings it has not', () => {
    render(<Editor initial={[]} />);
    fireEvent.click(screen.getByTestId('tool-web_search'));
    const form = screen.getByTestId('tool-web_search-settings');
    expect(form.textContent).toContain('Reads its key from SERPER_API_KEY.');
    fireEvent.change(within(form).getByTestId('tool-web_search-resultCount'), { target: { value: '3' } });
    fireEvent.change(within(form).getByTestId('tool-web_search-location'), { target: { value: 'Lyon, France' } });
    fireEvent.change(within(form).getByTestId('tool-web_search-baseUrl'), { target: { value: 'http://127.0.0.1:9999' } });
    expect(latest).toEqual([{ tool: 'web_search', config: { resultCount: 3, location: 'Lyon, France', baseUrl: 'http://127.0.0.1:9999' } }]);

    fireEvent.change(within(form).getByTestId('tool-web_search-provider'), { target: { value: 'brave' } });
    expect(latest[0]!.config).toEqual({ provider: 'brave', resultCount: 3, baseUrl: 'http://127.0.0.1:9999' });
    expect(within(form).queryByTestId('tool-web_search-location')).toBeNull();
    expect(form.textContent).toContain('Reads its key from BRAVE_API_KEY.');
    expect(ToolRefSchema.safeParse(latest[0]).success).toBe(true);

    // Emptied fields leave the file; no setting left, no config.
    fireEvent.change(within(form).getByTestId('tool-web_search-provider'), { target: { value: 'serper' } });
    fireEvent.change(within(form).getByTestId('tool-web_search-resultCount'), { target: { value: '' } });
    fireEvent.change(within(form).getByTestId('tool-web_search-baseUrl'), { target: { value: '' } });
    expect(latest).toEqual([{ tool: 'web_search' }]);
  });

  it('file_search pinned to a PDF; scrape_website asks for a selector only when it returns an element', () => {
    render(<Editor initial={[{ tool: 'file_search' }, { tool: 'scrape_website' }]} />);
    fireEvent.change(screen.getByTestId('tool-file_search-fileType'), { target: { value: 'pdf' } });
    fireEvent.change(screen.getByTestId('tool-file_search-path'), { target: { value: 'docs/handbook.pdf' } });
    expect(latest[0]).toEqual({ tool: 'file_search', config: { fileType: 'pdf', path: 'docs/handbook.pdf' } });

    expect(screen.queryByTestId('tool-scrape_website-selector')).toBeNull();
    fireEvent.change(screen.getByTestId('tool-scrape_website-variant'), { target: { value: 'element' } });
    fireEvent.change(screen.getByTestId('tool-scrape_website-selector'), { target: { value: 'article h1' } });
    expect(latest[1]).toEqual({ tool: 'scrape_website', config: { variant: 'element', selector: 'article h1' } });
    fireEvent.change(screen.getByTestId('tool-scrape_website-variant'), { target: { value: 'page' } });
    expect(latest[1]).toEqual({ tool: 'scrape_website' });
  });

  it('keeps a comma typed into allowed hosts; name and description overrides; no JSON box for built-in tools', () => {
    render(<Editor initial={[{ tool: 'http_request' }, { tool: 'calculator' }]} />);
    const hosts = screen.getByTestId('tool-http_request-allowedHosts') as HTMLInputElement;
    fireEvent.change(hosts, { target: { value: 'api.example.com,' } });
    expect(hosts.value).toBe('api.example.com,');
    fireEvent.change(hosts, { target: { value: 'api.example.com, 127.0.0.1:8080' } });
    expect(latest[0]).toEqual({ tool: 'http_request', config: { allowedHosts: ['api.example.com', '127.0.0.1:8080'] } });
    fireEvent.click(screen.getAllByText('Name and description the model sees')[1]!);
    fireEvent.change(screen.getAllByLabelText('Name')[1]!, { target: { value: 'add_numbers' } });
    expect(latest[1]).toEqual({ tool: 'calculator', name: 'add_numbers' });
    expect(screen.queryByLabelText('Config (JSON)')).toBeNull();
  });

  it('shows each problem under its field, and one about a setting with no field under the form', () => {
    const problems: Problem[] = [
      { path: 'agents.0.tools.0.config.baseUrl', message: 'Invalid URL' },
      { path: 'agents.0.tools.0.config.depth', message: 'web_search has no setting "depth"' },
    ];
    render(<Editor initial={[{ tool: 'web_search', config: { baseUrl: 'nope', depth: 2 } }]} problems={problems} />);
    const baseUrl = screen.getByTestId('tool-web_search-baseUrl').closest('.insp-field')!;
    expect(within(baseUrl as HTMLElement).getByRole('alert').textContent).toBe('Invalid URL');
    const form = screen.getByTestId('tool-web_search-settings');
    const alerts = within(form).getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toEqual(['Invalid URL', 'depth: web_search has no setting "depth"']);
  });
});
