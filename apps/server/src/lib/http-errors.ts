/** An error whose message is safe to show the user; anything else becomes a generic 500. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Not found') => new HttpError(404, what);
export const forbidden = () => new HttpError(403, 'You do not have access to this');
export const unauthorized = () => new HttpError(401, 'Please sign in');
export const badRequest = (message: string) => new HttpError(400, message);
