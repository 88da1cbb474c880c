import { z } from 'zod';
import { alertAnswerStatuses } from './alert.schema.ts';
import { emailSchema, newPasswordSchema, profileSchema } from './auth.schema.ts';
import { roles } from './roles.ts';

/**
 * Accounts run by an administrator, sign-up policy, invitations, password resets and self-service
 * (docs/product.md, "Roles and permissions" and "Screens and routes").
 */

/** Who may register: anyone, holders of an invitation, or nobody (invitations still work). */
export const signupPolicies = ['open', 'invite-only', 'closed'] as const;
export type SignupPolicy = (typeof signupPolicies)[number];

export const signupPolicyLabels: Record<SignupPolicy, string> = {
  open: 'Open: anyone can register',
  'invite-only': 'Invite only: registration needs an invitation link',
  closed: 'Closed: nobody can register (invitation links still work)',
};

/** The roles an invitation grants; super_admin is granted on the Users screen only. */
export const invitableRoles = ['user', 'admin'] as const;
export type InvitableRole = (typeof invitableRoles)[number];

/** The highest role of an account, as the Users screen sets it. */
export const accountLevels = ['user', 'admin', 'super_admin'] as const;
export type AccountLevel = (typeof accountLevels)[number];

export function accountLevel(userRoles: readonly string[]): AccountLevel {
  if (userRoles.includes('super_admin')) return 'super_admin';
  return userRoles.includes('admin') ? 'admin' : 'user';
}

export const accountLevelLabels: Record<AccountLevel, string> = {
  user: 'Planner',
  admin: 'Admin',
  super_admin: 'Super admin',
};

export const accountMessages = {
  userNotFound: 'User not found.',
  lastSuperAdmin: 'This is the last super admin: make another account super admin first.',
  onlySuperAdminGrants: 'Only a super admin can grant or revoke admin rights.',
  notYourself: 'Use Settings to change your own account.',
  accountDisabled: 'This account is disabled. Ask an administrator.',
  signupClosed: 'Registration is closed. Ask an administrator for an invitation.',
  signupInviteOnly: 'Registration needs an invitation. Ask an administrator for a link.',
  invitationInvalid: 'This invitation link is not valid: it was used, revoked or has expired.',
  invitationEmailMismatch: 'This invitation is for another e-mail address.',
  invitationNotFound: 'Invitation not found.',
  resetLinkSent:
    'If an account exists for that address, we have sent it a link to reset its password. The link works once, for a limited time.',
  resetByEmailUnavailable: 'This server cannot send e-mail. Ask an administrator for a password reset link.',
  resetLinkInvalid: 'This reset link is not valid: it was used or has expired. Ask for a new one.',
  passwordReset: 'Your password has been reset. Sign in with the new one.',
  tooManyResets: 'Too many reset requests. Try again later.',
  userDisabled: (name: string) => `${name} is disabled: signed out everywhere, alerts paused.`,
  userEnabled: (name: string) => `${name} is enabled again: alerts resume.`,
  userDeleted: (name: string) => `${name} and their data were deleted.`,
  rolesChanged: (name: string, level: string) => `${name} is now ${level}.`,
  deleteConfirm: (name: string, alerts: number, channels: number) =>
    `Delete ${name}? This deletes the account with its ${alerts} alert(s), ${channels} channel(s), watchlists, API tokens and notification history. This cannot be undone.`,
  deleteOwnConfirm:
    'Delete your account? Your alerts, channels, watchlists, API tokens and history are deleted. This cannot be undone.',
  ownAccountDeleted: 'Your account has been deleted.',
  passwordWrong: 'Password is incorrect.',
  policyChanged: (label: string) => `Sign-up policy set to ${label}.`,
  invitationCreated: 'Invitation created. Copy the link and send it, or it was e-mailed.',
  invitationRevoked: 'Invitation revoked.',
  invitationNotEmailed: 'The server cannot send e-mail: copy the link and send it yourself.',
  loadUsersFailed: 'Unable to load users.',
  updateUserFailed: 'Unable to update the user.',
} as const;

export const adminUserListInput = z
  .object({
    /** Matches name or e-mail, case-insensitive. */
    search: z.string().trim().max(200).optional(),
  })
  .optional();
export type AdminUserListInput = z.infer<typeof adminUserListInput>;

export const adminUserSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  roles: z.array(z.enum(roles)),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  alertCount: z.number().int(),
  channelCount: z.number().int(),
  disabled: z.boolean(),
  emailVerified: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** One account as its page shows it: the row, and its alerts. */
export const adminUserDetailSchema = adminUserSchema.extend({
  alerts: z.array(
    z.object({
      id: z.string(),
      title: z.string().nullable(),
      partyName: z.string().nullable(),
      status: z.enum(alertAnswerStatuses),
      templateName: z.string(),
      createdAt: z.string(),
    }),
  ),
  watchlistCount: z.number().int(),
  apiTokenCount: z.number().int(),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const adminUserIdInput = z.object({ id: z.uuid() });
export const setUserDisabledInput = z.object({ id: z.uuid(), disabled: z.boolean() });
export type SetUserDisabledInput = z.infer<typeof setUserDisabledInput>;
export const setUserLevelInput = z.object({ id: z.uuid(), level: z.enum(accountLevels) });
export type SetUserLevelInput = z.infer<typeof setUserLevelInput>;

/** A link an administrator hands over: an invitation or a password reset. */
export const issuedLinkSchema = z.object({
  url: z.string(),
  expiresAt: z.string(),
});
export type IssuedLink = z.infer<typeof issuedLinkSchema>;

export const signupSettingsSchema = z.object({
  policy: z.enum(signupPolicies),
  /** The configured default (SIGNUP_POLICY), used until a super admin sets one. */
  defaultPolicy: z.enum(signupPolicies),
});
export type SignupSettings = z.infer<typeof signupSettingsSchema>;
export const setSignupPolicyInput = z.object({ policy: z.enum(signupPolicies) });

export const invitationStatuses = ['pending', 'used', 'expired', 'revoked'] as const;
export const invitationSchema = z.object({
  id: z.string(),
  role: z.enum(invitableRoles),
  email: z.string().nullable(),
  status: z.enum(invitationStatuses),
  createdAt: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const createInvitationInput = z.object({
  role: z.enum(invitableRoles).default('user'),
  /** Only this address may register through it; the link is e-mailed to it when e-mail is set up. */
  email: z
    .union([z.literal(''), emailSchema])
    .nullable()
    .optional(),
});
export type CreateInvitationInput = z.input<typeof createInvitationInput>;

export const createdInvitationSchema = invitationSchema.extend({
  /** The link to hand over: shown once, only its hash is stored. */
  url: z.string(),
  emailed: z.boolean(),
});
export type CreatedInvitation = z.infer<typeof createdInvitationSchema>;
export const invitationIdInput = z.object({ id: z.uuid() });

/** The sign-in and registration pages' options: what the server allows and can do. */
export const authOptionsSchema = z.object({
  signupPolicy: z.enum(signupPolicies),
  /** False without e-mail (or a public address for links): the page says to ask an administrator. */
  passwordResetByEmail: z.boolean(),
});
export type AuthOptions = z.infer<typeof authOptionsSchema>;

const tokenSchema = z.string().trim().min(16).max(200);

export const invitationLookupInput = z.object({ token: tokenSchema });
export const invitationLookupSchema = z.object({
  role: z.enum(invitableRoles),
  email: z.string().nullable(),
  expiresAt: z.string(),
});
export type InvitationLookup = z.infer<typeof invitationLookupSchema>;

export const forgotPasswordInput = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInput>;
export const resetPasswordInput = z.object({ token: tokenSchema, password: newPasswordSchema });
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

export const deleteOwnAccountInput = z.object({
  password: z.string().min(1, 'Password is required.').max(256),
});

/** GET /users/me/export: everything the account holds, as JSON. */
export const accountExportSchema = z.object({
  exportedAt: z.string(),
  account: profileSchema,
  alerts: z.array(z.record(z.string(), z.unknown())),
  channels: z.array(z.record(z.string(), z.unknown())),
  watchlists: z.array(z.record(z.string(), z.unknown())),
  notifications: z.array(z.record(z.string(), z.unknown())),
  apiTokens: z.array(z.record(z.string(), z.unknown())),
});
export type AccountExport = z.infer<typeof accountExportSchema>;

/** Channel verification: a code sent to the destination, entered in Settings. */
export const CHANNEL_CODE_LENGTH = 6;
export const verifyChannelInput = z.object({
  id: z.uuid(),
  code: z
    .string({ error: 'Enter the code from the message.' })
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from the message.'),
});
export type VerifyChannelInput = z.infer<typeof verifyChannelInput>;

export const channelVerificationMessages = {
  codeSent: 'A code was sent to this channel. Enter it to verify the channel.',
  codeWrong: 'That code is not right, or it has expired. Send a new one.',
  verified: 'Channel verified: it receives alerts now.',
  alreadyVerified: 'This channel is already verified.',
  notNeeded: 'Only e-mail and SMS channels are verified.',
  tooManyCodes: 'Too many codes sent to this channel. Try again later.',
  unverified: 'Not verified: it receives nothing until you enter the code sent to it.',
  existing:
    'Added before verification existed: it keeps receiving alerts. Verify it to confirm the destination.',
  skippedUnverified: 'Skipped: this channel is not verified.',
  skippedOverCap: (perHour: number) =>
    `Skipped: this channel already received ${perHour} messages in the last hour (the hourly cap).`,
  testNeedsVerification: 'Verify this channel first: until then only its verification code is sent to it.',
} as const;
