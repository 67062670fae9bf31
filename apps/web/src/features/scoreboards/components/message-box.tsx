import { useId, useState } from 'react';
import { AuthStatus } from '@sagan/shared/auth-status';
import { SCOREKEEPER_MESSAGE_MAX } from '@sagan/shared/scoreboard-basics';
import { useAuth } from '../../../lib/auth.ts';
import { useSendScorekeeperMessage } from '../api/use-scoreboard-actions.ts';
import { SignInLink } from './sign-in-link.tsx';
import { ButtonRow } from '../../../components/button-row.tsx';

/** SPEC §2 'Message the Scorekeeper': textarea, Cancel and Send; 'Sent' after sending. */
export function MessageBox({ gameKey }: { gameKey: string }) {
  const { authStatus } = useAuth();
  const send = useSendScorekeeperMessage(gameKey);
  const [text, setText] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const id = useId();

  if (authStatus !== AuthStatus.SignedIn) {
    return (
      <section className="card message-box" aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`}>Message the Scorekeeper</h2>
        <p className="muted">
          <SignInLink>Sign in</SignInLink> to send the scorekeeper a message.
        </p>
      </section>
    );
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    // The same schema the server applies (STYLE: one schema, both ends), loaded with zod when a
    // message is sent, not with the board: most viewers never send one.
    let schema;
    try {
      ({ scorekeeperMessageSchema: schema } = await import('./message-schema.ts'));
    } catch {
      setInvalid('Could not reach the server. Check your connection and try again.');
      return;
    }
    const parsed = schema.safeParse({ scoreKeeperMessage: text });
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? 'Please write a message');
      return;
    }
    setInvalid(null);
    send.mutate(parsed.data.scoreKeeperMessage, { onSuccess: () => setText('') });
  }

  return (
    <section className="card message-box" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Message the Scorekeeper</h2>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor={`${id}-t`}>Your message</label>
        {/* No maxLength: it would cut a pasted message silently. The counter shows the limit
            and the schema refuses a longer message with words. */}
        <textarea
          id={`${id}-t`}
          rows={3}
          aria-describedby={`${id}-count`}
          aria-invalid={text.length > SCOREKEEPER_MESSAGE_MAX || undefined}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (send.isSuccess) send.reset();
          }}
        />
        <p
          id={`${id}-count`}
          className={`help char-count${text.length > SCOREKEEPER_MESSAGE_MAX ? ' over' : ''}`}
        >
          {text.length} / {SCOREKEEPER_MESSAGE_MAX} characters
        </p>
        {invalid && (
          <p className="form-error" role="alert">
            {invalid}
          </p>
        )}
        {send.error && (
          <p className="form-error" role="alert">
            {send.error.message}
          </p>
        )}
        <ButtonRow done={send.isSuccess && 'Sent'}>
          <button
            type="button"
            className="btn"
            onClick={() => {
              setText('');
              setInvalid(null);
              send.reset();
            }}
          >
            Cancel
          </button>
          <button type="submit" className="btn primary" disabled={send.isPending}>
            Send
          </button>
        </ButtonRow>
      </form>
    </section>
  );
}
