import { AuthStatus } from '@sagan/shared/auth-status';
import { useAuth } from '../../../lib/auth.ts';
import { api } from '../../../lib/api.ts';
import { useAction } from '../../../lib/use-action.ts';

/**
 * One tap sends a game or a comment to the operators' queue; it counts once per person. Only
 * a signed-in viewer can report.
 */
function Report({
  path,
  label,
  thanks,
  small,
}: {
  path: string;
  label: string;
  thanks: string;
  /** A comment's report is a quiet link beside it, not a button of the page. */
  small?: boolean;
}) {
  const { authStatus } = useAuth();
  const report = useAction(() => api<{ ok: true; alreadyReported: boolean }>('POST', path, {}));
  if (authStatus !== AuthStatus.SignedIn) return null;
  const Tag = small ? 'span' : 'p';
  if (report.isSuccess) {
    return (
      <Tag className={small ? 'report-comment muted' : 'report-game muted'} role="status">
        {thanks}
      </Tag>
    );
  }
  return (
    <Tag className={small ? 'report-comment' : 'report-game'}>
      <button
        type="button"
        className={small ? 'linklike' : 'btn'}
        disabled={report.isPending}
        onClick={() => report.mutate(undefined)}
      >
        {label}
      </button>
      {report.error && (
        <span className="form-error" role="alert">
          {' '}
          {report.error.message}
        </span>
      )}
    </Tag>
  );
}

export function ReportGame({ gameKey }: { gameKey: string }) {
  return (
    <Report
      path={`/games/${encodeURIComponent(gameKey)}/report`}
      label="Report this game"
      thanks="Thank you. The site's moderators will look at this game."
    />
  );
}

export function ReportComment({ gameKey, commentId }: { gameKey: string; commentId: string }) {
  return (
    <Report
      path={`/games/${encodeURIComponent(gameKey)}/comments/${encodeURIComponent(commentId)}/report`}
      label="Report"
      thanks="Reported: the moderators will look at it."
      small
    />
  );
}
