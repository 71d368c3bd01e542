// DEPARTMENTS_FILE: the departments as JSON, checked in full at startup. Every mistake is reported
// at once, one line each, naming where it is (`departments[1].hours: …`), so an operator fixes the
// file in one go instead of one restart per mistake.
//   { "departments": [ { "id": "sales", "name": { "en": "Sales", "uk": "Продажі" },
//       "caller": "380441112233", "callerType": "default", "hours": "Mon-Fri 09:00-18:00",
//       "timezone": "Europe/Kyiv", "agents": ["manager1", "manager2"] } ] }
import { z } from 'zod';
import { parseWorkingHours } from '../schedule/working-hours.ts';
import type { Department } from './department.ts';

/** A zone the platform's tz database knows: a wrong one would only fail at the first call. */
function knownZone(zone: string): boolean {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone.length > 0;
  } catch {
    return false;
  }
}

/** What WORKING_HOURS accepts; the parser's own message says what is wrong. */
const hoursProblem = (text: string): string | null => {
  try {
    parseWorkingHours(text);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
};

/** A field every department must have: missing, it says so; of another type, what it should be. */
const required = (expected: string) => ({
  error: (issue: { code?: string; input?: unknown }) => {
    if (issue.code !== 'invalid_type') return undefined; // the inner rule's own words
    return issue.input === undefined ? `required: ${expected}` : `expected ${expected}`;
  },
});

const entry = z
  .object({
    id: z.string(required('an id such as "sales"')).regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'expected an id of 1 to 32 lower-case letters, digits, "-" or "_", such as "sales"'),
    name: z
      .record(
        z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'expected a language code such as "en" or "uk"'),
        z.string().trim().min(1, 'expected a name').max(60, 'expected at most 60 characters'),
        required('names per language, such as { "en": "Sales" }'),
      )
      .refine((names) => Object.keys(names).length > 0, 'expected at least one name, such as { "en": "Sales" }'),
    caller: z.string(required('the number, SIP login or scheme id to call first')).regex(/^\S{2,64}$/, 'expected a number, SIP login or scheme id (2 to 64 characters, no spaces)'),
    callerType: z.enum(['default', 'scheme'], 'expected "default" or "scheme"').optional(),
    hours: z
      .string()
      .superRefine((text, ctx) => {
        const problem = hoursProblem(text);
        if (problem) ctx.addIssue({ code: 'custom', message: `expected office hours such as "Mon-Fri 09:00-18:00"; ${problem}` });
      })
      .optional(),
    timezone: z.string().refine(knownZone, 'expected an IANA time zone such as Europe/Kyiv').optional(),
    agents: z
      .array(z.string().regex(/^\S{1,64}$/, 'expected a SIP login'), 'expected a list of SIP logins')
      .min(1, 'expected at least one SIP login')
      .optional(),
  })
  .strict();

const file = z.object({ departments: z.array(entry, 'expected a list of departments').min(1, 'expected at least one department') }).strict();

/** Where a mistake is, as an operator reads the file: `departments[1].name.en`. */
function where(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('') || 'the file';
}

/** One mistake in words: zod's own for an unknown field or a bad language code are not an operator's. */
function wording(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  if (issue.code === 'invalid_key') return issue.issues[0]?.message ?? issue.message;
  return issue.message;
}

export type DepartmentsFile = { ok: true; departments: [Department, ...Department[]] } | { ok: false; mistakes: string[] };

/** The departments in `text`, or every mistake in it. Without `timezone`, a department's hours are in `defaultZone` (TIMEZONE). */
export function parseDepartmentsFile(text: string, defaultZone: string): DepartmentsFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, mistakes: [`not valid JSON: ${(err as Error).message}`] };
  }
  const parsed = file.safeParse(json);
  if (!parsed.success) {
    return { ok: false, mistakes: parsed.error.issues.map((issue) => `${where(issue.path)}: ${wording(issue)}`) };
  }
  const seen = new Set<string>();
  const mistakes: string[] = [];
  parsed.data.departments.forEach((d, i) => {
    if (seen.has(d.id)) mistakes.push(`departments[${i}].id: "${d.id}" is used by an earlier department; each id must be unique`);
    seen.add(d.id);
  });
  if (mistakes.length > 0) return { ok: false, mistakes };
  const departments = parsed.data.departments.map(
    (d): Department => ({
      id: d.id,
      name: d.name,
      caller: d.caller,
      callerType: d.callerType ?? 'default',
      hours: d.hours === undefined ? null : parseWorkingHours(d.hours),
      timeZone: d.timezone ?? defaultZone,
      agents: d.agents ?? null,
    }),
  );
  return { ok: true, departments: departments as [Department, ...Department[]] };
}
