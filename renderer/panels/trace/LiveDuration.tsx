import { useEffect, useState } from 'react';
import { formatDuration } from '../formatTime';

/** A run's duration; ticks while it runs. */
export function LiveDuration({ startedAt, durationMs, running }: { startedAt?: number; durationMs?: number; running: boolean }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [running]);
  const ms = durationMs ?? (startedAt !== undefined && running ? Math.max(0, now - startedAt) : undefined);
  return ms === undefined ? null : <span className="live-duration">{formatDuration(ms)}</span>;
}
