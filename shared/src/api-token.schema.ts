import { z } from 'zod';

/** Personal API tokens: a credential for integrators' scripts (docs/api.md "Personal API tokens"). */
export const apiTokenScopes = ['read-only', 'read-write'] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];

/** Every token starts with this, so secret scanners and people recognise one. */
export const API_TOKEN_PREFIX = 'ra_pat_';
/** How many characters of a token are kept in clear to tell tokens apart in the list. */
export const API_TOKEN_DISPLAY_LENGTH = 12;
export const API_TOKEN_MAX_PER_USER = 50;

export const apiTokenMessages = {
  nameRequired: 'Name is required.',
  nameTooLong: 'Name must be at most 100 characters.',
  scopeInvalid: 'Scope must be read-only or read-write.',
  expiryInPast: 'Expiry must be in the future.',
  expiryInvalid: 'Expiry must be a date and time.',
  tooMany: `At most ${API_TOKEN_MAX_PER_USER} tokens per account: revoke one first.`,
  notFound: 'API token not found.',
  invalid: 'API token is not valid.',
  expired: 'API token has expired.',
  revoked: 'API token has been revoked.',
  readOnly: 'This API token is read-only.',
  needsSession: 'Sign in to do this: API tokens cannot.',
  apiOnly: 'API tokens are accepted on /api only.',
  rateLimited: 'Too many requests with this API token. Try again later.',
  createFailed: 'Unable to create the API token.',
  revokeFailed: 'Unable to revoke the API token.',
  loadFailed: 'Unable to load API tokens.',
} as const;

export const createApiTokenInput = z.object({
  name: z
    .string({ error: apiTokenMessages.nameRequired })
    .trim()
    .min(1, apiTokenMessages.nameRequired)
    .max(100, apiTokenMessages.nameTooLong),
  scope: z.enum(apiTokenScopes, { error: apiTokenMessages.scopeInvalid }),
  /** ISO 8601 date-time; absent or null: never expires. */
  expiresAt: z.iso.datetime({ offset: true, error: apiTokenMessages.expiryInvalid }).nullable().optional(),
});
export type CreateApiTokenInput = z.infer<typeof createApiTokenInput>;

export const apiTokenIdInput = z.object({ id: z.uuid() });

/** A token as listed: never the secret itself, only its first characters. */
export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(apiTokenScopes),
  /** The token's first characters (e.g. "ra_pat_AbCd"), to tell tokens apart. */
  displayPrefix: z.string(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to a create: the token in full, shown this once and never again. */
export const createdApiTokenSchema = z.object({ token: z.string(), apiToken: apiTokenSchema });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;
