import { focusOnMount } from '../../components/focus-on-mount.ts';
import { ErrorMessage } from '../../components/error-message.tsx';

/**
 * The question a delete asks first, with its yes (focused, so Enter answers it) and no. The
 * live sheet drops what is deleted (and the screen) before the delete answers, so onYes should
 * act on the mutation's promise, which still settles then; a per-call onSuccess would not run.
 */
export function ConfirmDelete({
  id,
  question,
  yes,
  pending,
  error,
  onYes,
  onNo,
}: {
  id: string;
  question: string;
  yes: string;
  pending: boolean;
  error: Error | null;
  onYes: () => void;
  onNo: () => void;
}) {
  return (
    <div className="confirm" role="alertdialog" aria-labelledby={id}>
      <p id={id}>{question}</p>
      <div className="btn-row">
        <button
          type="button"
          className="btn danger"
          disabled={pending}
          onClick={onYes}
          ref={focusOnMount}
        >
          {yes}
        </button>
        <button type="button" className="btn" onClick={onNo}>
          No, keep
        </button>
      </div>
      <ErrorMessage error={error} />
    </div>
  );
}
