// Departments for tests: DEPARTMENTS_FILE as an operator writes it, in a temporary file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.ts';

/** Sales: the simulator's office line, Mon-Fri 09-18 in Kyiv, two agents online in the simulator. */
export const SALES = {
  id: 'sales',
  name: { en: 'Sales', uk: 'Продажі' },
  caller: '380441112233',
  callerType: 'default',
  hours: 'Mon-Fri 09:00-18:00',
  timezone: 'Europe/Kyiv',
  agents: ['manager1', 'manager2'],
};

// Made at import: removed once the file that imported this module is over.
const dir = tempDir('departments');
let files = 0;

/** A DEPARTMENTS_FILE holding `content` (an object as JSON, or text as it is); its path. */
export function departmentsFile(content: unknown): string {
  const path = join(dir, `departments-${files++}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}
