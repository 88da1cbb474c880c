/**
 * Every user-facing message (docs/product.md, "Validation and messages"; "Errors") lives here once, so the server's procedures,
 * the REST adapters and the client's forms answer the same words.
 */
export const messages = {
  common: {
    requestFailed: (status: number) => `Request failed with ${status}`,
    notFound: 'Not found.',
    unauthorized: 'Authentication required.',
    forbidden: 'You do not have permission to do that.',
    tooLarge: 'Request body is too large.',
    rateLimited: 'Too many requests. Try again later.',
    internal: 'Something went wrong on our side. Please try again.',
    invalidJson: 'Invalid JSON provided.',
    jsonTooDeep: 'JSON is nested too deeply.',
    nulCharacter: 'Text must not contain NUL characters.',
    invalidValue: 'A value in the request is not valid.',
    unsupportedMediaType: 'Content-Type must be application/json.',
    routeNotFound: 'No such route.',
    urlTooLong: 'The request URL is too long.',
  },
} as const;
