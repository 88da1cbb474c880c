import { messages } from '@resort/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../platform/errors.ts';

/** Deeper than any real request body; well below where recursive serialisers overflow the stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * Why a parsed JSON body must be refused, or null. Walks iteratively (a body nested a million levels
 * deep must not overflow this check either): nesting beyond `maxDepth` would crash recursive code
 * later (JSON.stringify, PostgreSQL's jsonb input), and NUL characters cannot be stored in PostgreSQL
 * text or jsonb at all.
 */
export function bodyProblem(body: unknown, maxDepth = MAX_JSON_DEPTH): string | null {
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return messages.common.nulCharacter;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) return messages.common.jsonTooDeep;
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1]);
    } else {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return messages.common.nulCharacter;
        stack.push([item, depth + 1]);
      }
    }
  }
  return null;
}

/** Refuses such bodies with 400 before any route (REST or tRPC) sees them. */
export function registerBodyGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    if (req.body === undefined) return;
    const problem = bodyProblem(req.body);
    if (problem) throw new AppError('BAD_REQUEST', problem);
  });
}
