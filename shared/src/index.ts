export * from './auth.schema.ts';
export * from './editable-field.schema.ts';
export * from './evaluator.ts';
export * from './json-path.ts';
export * from './messages.ts';
export * from './roles.ts';
export * from './safe-regex.ts';
export * from './watch.schema.ts';
