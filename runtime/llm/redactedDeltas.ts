import { hasKnownSecrets, knownSecrets, redactKnown } from '../redactSecrets';

/**
 * Stream deltas with known secrets cut, though a key may arrive split over several deltas. Text is
 * passed on a margin behind what has arrived (the margin is longer than any form of a registered
 * secret), once the window from a margin before it to the newest text holds no secret: every form that
 * could touch what is passed on lies whole inside that window. Once a window holds one, the rest waits
 * for `end()` and goes out redacted. Each window is checked once per margin of new text, so the work
 * stays linear in the reply's length.
 */
export function redactedDeltas(onChunk: ((delta: string) => void) | undefined): { push(delta: string): void; end(): void } {
  if (!onChunk) return { push: () => {}, end: () => {} };
  let received = '';
  let sent = 0;
  let holding = false;
  return {
    push(delta) {
      received += delta;
      if (!hasKnownSecrets()) {
        onChunk(received.slice(sent));
        sent = received.length;
        return;
      }
      const keep = margin();
      if (holding || received.length - sent < 2 * keep) return;
      const window = received.slice(Math.max(0, sent - keep));
      if (redactKnown(window) !== window) {
        holding = true;
        return;
      }
      const upTo = received.length - keep;
      onChunk(received.slice(sent, upTo));
      sent = upTo;
    },
    end() {
      if (received.length > sent) onChunk(redactKnown(received.slice(sent)));
      sent = received.length;
    },
  };
}

/** Longer than the longest form of any registered secret (base64 of its UTF-16 bytes, spaced out, wrapped). */
function margin(): number {
  let longest = 0;
  for (const secret of knownSecrets()) longest = Math.max(longest, secret.length);
  return longest * 6 + 16;
}
