import { useMutation } from '@tanstack/react-query';
import { AuthStatus } from '@sagan/shared/auth-status';
import { useAuth } from '../../../lib/auth.ts';
import { api } from '../../../lib/api.ts';

/** One tap sends a game to the operators' queue; it counts once per person. */
export function ReportGame({ gameKey }: { gameKey: string }) {
  const { authStatus } = useAuth();
  const report = useMutation({
    mutationFn: () =>
      api<{ ok: true; alreadyReported: boolean }>(
        'POST',
        `/games/${encodeURIComponent(gameKey)}/report`,
        {},
      ),
  });
  if (authStatus !== AuthStatus.SignedIn) return null;
  if (report.isSuccess) {
    return (
      <p className="report-game muted" role="status">
        Thank you. The site&apos;s moderators will look at this game.
      </p>
    );
  }
  return (
    <p className="report-game">
      <button
        type="button"
        className="btn"
        disabled={report.isPending}
        onClick={() => report.mutate()}
      >
        Report this game
      </button>
      {report.error && (
        <span className="form-error" role="alert">
          {' '}
          {report.error.message}
        </span>
      )}
    </p>
  );
}
