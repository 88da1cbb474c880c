import type { inferInput, inferOutput } from '@trpc/tanstack-react-query';
import type { OptionsProxy } from './trpc.ts';

/**
 * Answers as the client receives them: tRPC's JSON transport makes `unknown` members optional
 * (a JSON body may leave them out), so these differ slightly from the shared zod output types.
 */
export type TemplateRecord = inferOutput<OptionsProxy['templates']['get']>;
export type TemplateGroupRecord = inferOutput<OptionsProxy['templateGroups']['list']>[number];
export type TemplateTestAnswer = inferOutput<OptionsProxy['templates']['test']>;
export type TemplateUpdateRequest = inferInput<OptionsProxy['templates']['update']>;
export type RegistrationRecord = inferOutput<OptionsProxy['registrations']['get']>;
export type RegistrationTestAnswer = inferOutput<OptionsProxy['registrations']['test']>;
