import type { WebSocket } from 'ws';

/** Requests one socket may have in flight (received, not yet answered onto the wire). */
export const MAX_IN_FLIGHT = 256;
/** Replies and pushes wait while the socket holds this much unsent data (the page is not reading). */
export const HIGH_WATER_BYTES = 1 << 20;
/** Messages waiting beyond this many bytes: the page has stopped reading; the socket is closed. */
export const MAX_WITHHELD_BYTES = 8 << 20;
/** WebSocket close code for a socket that broke the server's policy (RFC 6455 §7.4.1). */
export const POLICY_VIOLATION = 1008;
/** How often waiting messages are tried again while the socket's buffer is full. */
const RETRY_MS = 25;
/** A socket closed for its budget that does not finish its closing handshake is dropped after this. */
const CLOSE_GRACE_MS = 2_000;

/**
 * Backpressure for one browser-mode socket: what a page that sends without reading can make the host
 * hold. A reply or push waits while `bufferedAmount` is high; a request counts as in flight from its
 * arrival until its reply is handed to the socket. More than `MAX_IN_FLIGHT` requests in flight, or more
 * than `MAX_WITHHELD_BYTES` waiting, closes the socket with 1008 (policy violation) and drops all of it,
 * so memory stays bounded whatever the page does (issue 26: 30k unread requests grew the host by 376 MB).
 */
export class SocketBudget {
  private inFlight = 0;
  private waiting: { text: string; reply: boolean }[] = [];
  private waitingBytes = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private closedFor: string | undefined;

  constructor(private readonly ws: WebSocket) {}

  /** Whether the socket was closed for its budget (nothing more is read from it or sent to it). */
  get closed(): boolean {
    return this.closedFor !== undefined || this.ws.readyState !== this.ws.OPEN;
  }

  /** A request arrived. False (and the socket closed with 1008) when it is one too many. */
  requestArrived(): boolean {
    if (this.closed) return false;
    if (this.inFlight >= MAX_IN_FLIGHT) {
      this.close(`more than ${MAX_IN_FLIGHT} requests in flight: read the replies before sending more`);
      return false;
    }
    this.inFlight += 1;
    return true;
  }

  /** Sends a reply (`reply`: it ends a request in flight) or a push, now or once the socket has room. */
  send(text: string, reply: boolean): void {
    if (this.closed) return;
    if (this.waiting.length === 0 && this.ws.bufferedAmount < HIGH_WATER_BYTES) {
      this.ws.send(text);
      if (reply) this.inFlight -= 1;
      return;
    }
    this.waiting.push({ text, reply });
    this.waitingBytes += text.length;
    if (this.waitingBytes > MAX_WITHHELD_BYTES) {
      this.close('the page is not reading its replies');
      return;
    }
    this.retry ??= setTimeout(() => this.flush(), RETRY_MS);
  }

  /** Stops timers (the socket closed). */
  dispose(): void {
    if (this.retry !== undefined) clearTimeout(this.retry);
    this.retry = undefined;
    this.waiting = [];
    this.waitingBytes = 0;
  }

  private flush(): void {
    this.retry = undefined;
    if (this.closed) return this.dispose();
    while (this.waiting.length > 0 && this.ws.bufferedAmount < HIGH_WATER_BYTES) {
      const next = this.waiting.shift()!;
      this.waitingBytes -= next.text.length;
      this.ws.send(next.text);
      if (next.reply) this.inFlight -= 1;
    }
    if (this.waiting.length > 0) this.retry = setTimeout(() => this.flush(), RETRY_MS);
  }

  private close(reason: string): void {
    this.closedFor = reason;
    this.dispose();
    this.ws.close(POLICY_VIOLATION, reason);
    // Nothing more is read from it (what it still sends would only be parsed to be dropped), and a page
    // that does not read never answers the close either: it is cut off after a grace period.
    this.ws.pause();
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }
}
