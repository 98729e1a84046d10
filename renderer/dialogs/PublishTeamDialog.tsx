import { useEffect, useState } from 'react';
import type { HostResponse } from '../../shared/host-api';
import { host } from '../host/hostContext';
import { useDocumentStore } from '../stores/documentStore';
import { saveOpenDocument } from './saveOpenDocument';
import { Modal } from './Modal';

type Published = HostResponse<'team.publish'>;

/**
 * *Publish to team server…*: the open crew or flow, with the files it names (a flow's crew files, scripts,
 * knowledge) and the workspace's settings — model profiles, tool settings and prices, key *names* only —
 * becomes an immutable version on the team server, which then runs it through its API. Publishing an
 * unchanged document keeps its version.
 */
export function PublishTeamDialog({ server, onClose }: { server: string; onClose(): void }) {
  const path = useDocumentStore((s) => s.path);
  const name = useDocumentStore((s) => (s.doc as { name?: unknown } | undefined)?.name);
  const kind = useDocumentStore((s) => ((s.doc as { kind?: unknown } | undefined)?.kind === 'flow' ? 'flow' : 'crew'));
  const [state, setState] = useState<'ready' | 'publishing' | 'done'>('ready');
  const [published, setPublished] = useState<Published>();
  const [error, setError] = useState<string>();

  const publish = async () => {
    if (!path) return;
    setState('publishing');
    setError(undefined);
    try {
      // What is published is the file: unsaved edits are saved first.
      const unsaved = await saveOpenDocument(path);
      if (unsaved) throw new Error(unsaved);
      setPublished(await host().invoke('team.publish', { path }));
      setState('done');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setState('ready');
    }
  };

  return (
    <Modal
      testId="publish-dialog"
      title={state === 'done' ? (published?.created ? 'Published' : 'Already published') : 'Publish to team server'}
      subtitle={`${typeof name === 'string' && name ? name : path ?? ''} → ${server}`}
      onClose={onClose}
      footer={
        state === 'done' ? (
          <>
            <span className="modal-foot-spacer" />
            <button className="btn primary" data-testid="publish-close" onClick={onClose}>
              Done
            </button>
          </>
        ) : (
          <>
            <button className="btn ghost" onClick={onClose}>
              Cancel
            </button>
            <span className="modal-foot-spacer" />
            <button className="btn primary" data-testid="publish-confirm" disabled={state === 'publishing' || !path} onClick={() => void publish()}>
              {state === 'publishing' ? 'Publishing…' : `Publish ${kind}`}
            </button>
          </>
        )
      }
    >
      {published ? <PublishedSummary published={published} /> : <WhatIsPublished kind={kind} path={path ?? ''} />}
      {error && (
        <div className="dialog-error" data-testid="publish-error">
          {error}
        </div>
      )}
    </Modal>
  );
}

function WhatIsPublished({ kind, path }: { kind: 'crew' | 'flow'; path: string }) {
  return (
    <>
      <div className="dialog-label">What is published</div>
      <ul className="publish-list">
        <li>
          <code className="dialog-code">{path}</code>, as it is saved now{kind === 'flow' ? ', with the crew files and scripts it names' : ', with the scripts and knowledge files it names'}
        </li>
        <li>this workspace's settings: model profiles, tool settings and prices — key names only</li>
      </ul>
      <div className="dialog-hint">
        The version cannot change once published; publishing again after an edit makes the next version. Model and tool keys stay on the server (its environment or
        secrets): none is sent.
      </div>
    </>
  );
}

function PublishedSummary({ published }: { published: Published }) {
  const run = `crewdeck run ${published.id} --server ${published.server}`;
  return (
    <>
      <p className="publish-result" data-testid="publish-result">
        {published.created ? 'Published' : 'Unchanged:'} <strong>{published.id}</strong> version {published.version} on {published.server}
        {published.files.length > 0 ? ` (with ${published.files.length} file${published.files.length === 1 ? '' : 's'})` : ''}.
      </p>
      {published.files.length > 0 && (
        <ul className="publish-list" data-testid="publish-files">
          {published.files.map((f) => (
            <li key={f}>
              <code className="dialog-code">{f}</code>
            </li>
          ))}
        </ul>
      )}
      <div className="dialog-label">Run it</div>
      <pre className="dialog-pre dialog-pre-short">{`${run}\ncurl -X POST ${published.server}/v1/deployments/${published.id}/runs \\\n  -H "Authorization: Bearer $CREWDECK_API_KEY" -d '{"inputs": {}}'`}</pre>
    </>
  );
}

/** The toolbar's *Publish…*: shown when the workspace has a team server and a document is open. */
export function PublishTeamButton() {
  const path = useDocumentStore((s) => s.path);
  const problems = useDocumentStore((s) => s.problems.length);
  const [server, setServer] = useState<string>();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let live = true;
    host()
      .invoke('team.status', {})
      .then((status) => live && setServer(status.configured && status.keyPresent ? status.server : undefined))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [path]);
  if (!server || !path) return null;
  return (
    <>
      <button className="btn" data-testid="publish-team" disabled={problems > 0} title={problems > 0 ? 'Fix the problems first' : `Publish this document to the team server ${server}`} onClick={() => setOpen(true)}>
        Publish…
      </button>
      {open && <PublishTeamDialog server={server} onClose={() => setOpen(false)} />}
    </>
  );
}
