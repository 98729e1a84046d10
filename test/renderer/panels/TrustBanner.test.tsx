// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { TrustStatus } from '../../../shared/host-api';
import { setHost } from '../../../renderer/host/hostContext';
import { TrustBanner } from '../../../renderer/panels/TrustBanner';
import { useTrustStore } from '../../../renderer/stores/trustStore';
import { FakeHost } from '../run/fakeHost';

afterEach(() => {
  cleanup();
  // One store for the banner, Settings and the Run dialog: each test starts from nothing shown.
  useTrustStore.setState({ status: undefined, codeAsked: undefined, error: undefined, busy: false });
});

const untrusted: TrustStatus = {
  needed: true,
  trusted: false,
  parts: [
    { kind: 'command', where: 'crewdeck.json mcp.servers.fs', summary: 'runs: npx -y server-filesystem ./data', trusted: false },
    { kind: 'secret', where: 'crewdeck.json models.profiles.proxy', summary: 'sends $OPENAI_API_KEY to proxy.example.com', trusted: true },
  ],
};

it('lists the untrusted parts and trusts them with the Trust button', async () => {
  const host = new FakeHost({ 'trust.status': () => untrusted, 'trust.grant': () => ({ ...untrusted, trusted: true, parts: untrusted.parts.map((p) => ({ ...p, trusted: true })) }) });
  setHost(host);
  render(<TrustBanner />);
  const banner = await screen.findByTestId('trust-banner');
  expect(banner.textContent).toContain('crewdeck.json mcp.servers.fs: runs: npx -y server-filesystem ./data');
  // A part trusted already is not listed again.
  expect(banner.textContent).not.toContain('proxy.example.com');
  fireEvent.click(screen.getByTestId('trust-grant'));
  await waitFor(() => expect(screen.queryByTestId('trust-banner')).toBeNull());
  expect(host.callsTo('trust.grant')).toHaveLength(1);
});

it('shows nothing for a workspace that needs no trust, and asks again when documents change', async () => {
  let status: TrustStatus = { needed: false, trusted: true, parts: [] };
  const host = new FakeHost({ 'trust.status': () => status });
  setHost(host);
  render(<TrustBanner />);
  await waitFor(() => expect(host.callsTo('trust.status')).toHaveLength(1));
  expect(screen.queryByTestId('trust-banner')).toBeNull();
  status = untrusted;
  host.push({ kind: 'documents.changed' });
  expect(await screen.findByTestId('trust-banner')).toBeTruthy();
});

it('in browser mode asks for the code printed on the terminal, shows a wrong code, and trusts with the right one', async () => {
  const ask = { codeRequired: true, message: 'enter the code printed in the terminal where `crewdeck serve` runs' };
  const host = new FakeHost({
    'trust.status': () => untrusted,
    'trust.grant': (req: { code?: string }) =>
      req.code === undefined
        ? { ...untrusted, confirmation: ask }
        : req.code === '314159'
          ? { ...untrusted, trusted: true, parts: untrusted.parts.map((p) => ({ ...p, trusted: true })) }
          : { ...untrusted, confirmation: { codeRequired: true, message: 'that is not the code printed in the terminal' } },
  });
  setHost(host);
  render(<TrustBanner />);
  fireEvent.click(await screen.findByTestId('trust-grant'));
  const input = await screen.findByTestId('trust-code');
  expect(screen.getByTestId('trust-banner').textContent).toContain('where `crewdeck serve` runs');
  expect(screen.queryByTestId('trust-grant')).toBeNull();

  fireEvent.change(input, { target: { value: '111111' } });
  fireEvent.click(screen.getByTestId('trust-confirm'));
  expect(await screen.findByText('that is not the code printed in the terminal')).toBeTruthy();

  fireEvent.change(screen.getByTestId('trust-code'), { target: { value: '314159' } });
  fireEvent.click(screen.getByTestId('trust-confirm'));
  await waitFor(() => expect(screen.queryByTestId('trust-banner')).toBeNull());
  expect(host.callsTo('trust.grant')).toEqual([{}, { code: '111111' }, { code: '314159' }]);
});
