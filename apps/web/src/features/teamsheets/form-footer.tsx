import type { ReactNode } from 'react';
import { ErrorMessage } from '../../components/error-message.tsx';

/**
 * The end of a team sheet's edit form: the form's own problem, the server's refusal, then Save
 * (held while the save is on its way) and Cancel, and any further buttons after them.
 */
export function FormFooter({
  problem,
  error,
  pending,
  pendingLabel = 'Save',
  onCancel,
  children,
}: {
  problem?: string | null;
  error: Error | null;
  pending: boolean;
  pendingLabel?: string;
  onCancel: () => void;
  children?: ReactNode;
}) {
  return (
    <>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <ErrorMessage error={error} />
      <div className="btn-row">
        <button type="submit" className="btn primary" disabled={pending}>
          {pending ? pendingLabel : 'Save'}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        {children}
      </div>
    </>
  );
}
