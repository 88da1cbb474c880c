import type { Alert, AlertActivity, DateRange, NotificationService, User } from '@resort/shared';
import type { inferInput, inferOutput } from '@trpc/tanstack-react-query';
import type { OptionsProxy } from './trpc.ts';

/**
 * The API's answers as the client receives them. tRPC's JSON transport makes `unknown` members
 * optional (a JSON body may leave them out), so these differ slightly from the shared zod output
 * types.
 */

/**
 * An alert, as its read answers it. The list rows also carry the dates the alert polls (from the
 * request the server builds) and its activity; the alert form's read has neither.
 */
export type AlertRecord = inferOutput<OptionsProxy['alerts']['get']> & {
  dateRange?: DateRange | null;
  activity?: AlertActivity;
};
export type AlertTestAnswer = inferOutput<OptionsProxy['alerts']['test']>;

export type TemplateRecord = inferOutput<OptionsProxy['templates']['get']>;
export type TemplateGroupRecord = inferOutput<OptionsProxy['templateGroups']['list']>[number];
export type TemplateTestAnswer = inferOutput<OptionsProxy['templates']['test']>;
export type TemplateUpdateRequest = inferInput<OptionsProxy['templates']['update']>;

/**
 * GET /users/me. The users module types its two lists loosely (they come from other modules); these
 * are the shapes those modules answer.
 */
export interface UserSummary {
  user: User;
  notificationServices: NotificationService[];
  registrations: Alert[];
}
