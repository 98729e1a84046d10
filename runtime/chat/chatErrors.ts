/** A chat request that cannot run: no such agent, an empty message. */
export class ChatInvalid extends Error {
  override name = 'ChatInvalid';
}
