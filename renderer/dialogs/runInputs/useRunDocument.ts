import { useEffect, useState } from 'react';
import { host } from '../../host/hostContext';
import { isFlowDocument } from '../../model/documentKind';
import { useTrustStore } from '../../stores/trustStore';
import { crewInputs, type CrewInput } from '../crewInputs';
import type { DialogErrorValue } from '../DialogError';
import { saveOpenDocument } from '../saveOpenDocument';

/** `noun`: what the dialog calls the document (a flow's dialog says flow). */
export type RunDocument = { name: string; noun: 'crew' | 'flow'; inputs: CrewInput[]; profiles: string[]; defaultProfile?: string; teamServer?: string };

/**
 * The document the Run dialog runs, as saved (pending edits of the open document are saved first),
 * with the model profiles and team server of the settings; the inputs' values start at their defaults.
 * Holds the dialog's error too, which trusting the workspace clears when it was the refusal.
 */
export function useRunDocument(path: string) {
  const [loaded, setLoaded] = useState<RunDocument>();
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<DialogErrorValue>();

  useEffect(() => {
    let live = true;
    // Every failure is caught inside and shown in the dialog.
    void (async () => {
      try {
        const unsaved = await saveOpenDocument(path);
        if (unsaved) {
          if (live) setError({ message: unsaved });
          return;
        }
        const [read, settings] = await Promise.all([
          host().invoke('documents.read', { path }),
          host().invoke('settings.get', {}).catch(() => undefined),
        ]);
        if (!live) return;
        const doc = read.document as { name?: unknown } | null;
        const inputs = crewInputs(doc);
        setLoaded({
          name: typeof doc?.name === 'string' ? doc.name : path,
          noun: isFlowDocument(doc) ? 'flow' : 'crew',
          inputs,
          profiles: settings ? Object.keys(settings.settings.models.profiles) : [],
          defaultProfile: settings?.settings.models.default,
          teamServer: settings?.settings.team?.server,
        });
        setValues(Object.fromEntries(inputs.map((i) => [i.name, i.default ?? ''])));
        if (read.problems.length > 0) setError({ message: `The saved ${isFlowDocument(doc) ? 'flow' : 'crew'} has problems; the run will be refused until they are fixed.`, problems: read.problems });
      } catch (e) {
        if (live) setError({ message: e instanceof Error ? e.message : String(e) });
      }
    })();
    return () => {
      live = false;
    };
  }, [path]);

  // Trusted from this dialog (or the terminal): the refusal shown here no longer holds.
  const trusted = useTrustStore((s) => s.status?.trusted === true);
  useEffect(() => {
    if (trusted) setError((e) => (e && /not trusted/.test(e.message) ? undefined : e));
  }, [trusted]);

  return { loaded, values, setValues, error, setError };
}
