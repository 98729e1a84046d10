import { useEffect, useState } from 'react';
import { host } from '../../host/hostContext';

/** Model profile names from workspace settings (for the model pickers); empty if they cannot be read. */
export function useModelProfiles(): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    host()
      .invoke('settings.get', {})
      .then((r) => live && setNames(Object.keys(r.settings.models.profiles).sort()))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return names;
}
