/** One short sentence about what failed (DESIGN §8: failures are not silent). */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
