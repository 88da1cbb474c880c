import { z } from 'zod';
import { roles } from './roles.ts';

export const authMessages = {
  nameRequired: 'Name is required.',
  emailRequired: 'Email is required.',
  emailInvalid: 'Enter a valid email address.',
  passwordRequired: 'Password is required.',
  passwordHint: 'Use at least 8 characters with upper case, lower case and a digit.',
  passwordTooLong: 'Password must be at most 256 characters.',
  passwordsDoNotMatch: 'Passwords do not match.',
  invalidCredentials: 'Invalid email or password.',
  emailTaken: 'An account with this email already exists.',
  currentPasswordWrong: 'Current password is incorrect.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  tooManyAttempts: 'Too many sign-in attempts. Try again later.',
  loginFailed: 'Unable to log in.',
  registerFailed: 'Unable to create your account right now.',
  loadAccountFailed: 'Unable to load your account details.',
  loadUserFailed: 'Unable to load user details.',
  primaryEmailLabel: 'Primary Email Alerts',
} as const;

export const emailSchema = z
  .string({ error: authMessages.emailRequired })
  .trim()
  .min(1, authMessages.emailRequired)
  .max(320, authMessages.emailInvalid)
  .pipe(z.email(authMessages.emailInvalid));

/** The register hint's rule: 8+ characters with upper case, lower case and a digit. */
export const newPasswordSchema = z
  .string({ error: authMessages.passwordRequired })
  .min(1, authMessages.passwordRequired)
  .max(256, authMessages.passwordTooLong)
  .refine(
    (p) => p.length >= 8 && /[a-z]/.test(p) && /[A-Z]/.test(p) && /\d/.test(p),
    authMessages.passwordHint,
  );

export const registerInput = z.object({
  name: z.string({ error: authMessages.nameRequired }).trim().min(1, authMessages.nameRequired).max(200),
  email: emailSchema,
  password: newPasswordSchema,
  /** The token of an invitation link: registers whatever the sign-up policy, with the role it grants. */
  invitation: z.string().trim().min(16).max(200).optional(),
});
export type RegisterInput = z.infer<typeof registerInput>;

export const loginInput = z.object({
  email: emailSchema,
  password: z
    .string({ error: authMessages.passwordRequired })
    .min(1, authMessages.passwordRequired)
    .max(256, authMessages.passwordTooLong),
});
export type LoginInput = z.infer<typeof loginInput>;

export const changePasswordInput = z.object({
  currentPassword: z
    .string({ error: authMessages.passwordRequired })
    .min(1, authMessages.passwordRequired)
    .max(256),
  newPassword: newPasswordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

export const updateProfileInput = z
  .object({
    name: z.string().trim().min(1, authMessages.nameRequired).max(200).optional(),
    displayName: optionalText(200),
    headline: optionalText(300),
    bio: optionalText(5000),
    backupEmail: z
      .union([z.literal(''), z.email(authMessages.emailInvalid)])
      .nullable()
      .optional(),
    mobileNumber: optionalText(40),
  })
  .strict();
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

export const userSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  roles: z.array(z.enum(roles)),
});
export type User = z.infer<typeof userSchema>;

export const profileSchema = userSchema.extend({
  displayName: z.string().nullable(),
  headline: z.string().nullable(),
  bio: z.string().nullable(),
  backupEmail: z.string().nullable(),
  mobileNumber: z.string().nullable(),
  createdAt: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

export interface AuthTokens {
  accessToken: string;
  expiresIn: number;
}

export interface AuthResult {
  tokens: AuthTokens;
  user: User;
}
