import * as z from 'zod';

/**
 * A regex condition's `value` must compile as a JavaScript RegExp (here) and be proven linear in
 * backtracking engines, which the SDKs run it with (values/regex-safety.ts, checked on save).
 */
function compiles(pattern: string): boolean {
  try {
    // Compiled to read its syntax as the SDKs' engine does, never run: nothing here can backtrack.
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** Spec: RegexCondition. `path` names a request field (e.g. `request.route`, `request.verb`). */
export const RegexCondition = z.strictObject({
  path: z.string().min(1).max(256),
  value: z
    .string()
    .max(4096)
    .superRefine((pattern, ctx) => {
      if (!compiles(pattern)) ctx.addIssue({ code: 'custom', message: 'is not a valid regular expression' });
    }),
});

/** Spec: RegexRule (governance rules and app sampling). */
export const RegexRule = z.strictObject({
  conditions: z.array(RegexCondition).min(1).max(50),
  sample_rate: z.number().int().min(0).max(100).optional(),
});
export type RegexRule = z.infer<typeof RegexRule>;
