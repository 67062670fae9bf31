import { Loading } from '../../../components/loading.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';

/** A play-count screen before its data arrives: loading, or why it did not. */
export function WaitingPage({ loading, error }: { loading: boolean; error: unknown }) {
  return (
    <section className="page">
      {loading && <Loading />}
      <ErrorMessage error={error} />
    </section>
  );
}
