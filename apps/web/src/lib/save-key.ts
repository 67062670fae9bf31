import { newId } from './new-id.ts';

/** Sends a save under the current key: `send` gets the key to put in its Idempotency-Key. */
export type KeyedSave = <T>(send: (key: string) => Promise<T>) => Promise<T>;

/**
 * The Idempotency-Keys of one form's saves. A key names one request, its body included, so it
 * is kept only until that request is answered: a second click, or a retry after an answer that
 * never came, sends the same request under the same key, and the server replays its first
 * answer instead of writing again (adding a second player...). Once the server has answered it
 * is done with: the next save is another request (an edit after a save) and gets a new key.
 * A 422 (the key was used for another body: a save whose answer was lost, then an edit) is an
 * answer too, so the form is never stuck on it.
 */
export function saveKeys(): KeyedSave {
  let current: string | null = null;
  return async (send) => {
    const key = (current ??= newId());
    try {
      const answer = await send(key);
      current = null;
      return answer;
    } catch (err) {
      // Only a request the server refused for its key: anything else may be retried as it is.
      if ((err as { status?: number }).status === 422) current = null;
      throw err;
    }
  };
}
