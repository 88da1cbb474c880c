import { z } from 'zod';

/** Any JSON value. One instance, so the API document names its recursion once (`JsonValue`). */
export const jsonValueSchema = z.json();
