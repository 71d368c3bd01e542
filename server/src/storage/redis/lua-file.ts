// Loads a Redis Lua script from its own `.lua` file, so a script reads as Lua (and is reviewed as
// Lua) instead of living in a TypeScript string with a pasted prelude. A line `--#include <name>.lua`
// is replaced, at load time, by that file (a path relative to the including file): a piece shared by
// several scripts is written once. Each file is included at most once per script, so two pieces may
// both include a third, and a loop of includes ends.
//
// A script file opens with a header naming its KEYS, ARGV and what it returns (`-- KEYS:`,
// `-- ARGV:`, `-- Returns:`), so its caller's contract stands next to the code; loading refuses a
// script without one. `#!lua flags=…` may precede the header (Redis reads it on the first line only).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lua, type LuaScript } from './commands.ts';

const INCLUDE = /^--#include\s+(\S+)\s*$/;
const SHEBANG = /^#!lua\b/;
const HEADER = ['-- KEYS:', '-- ARGV:', '-- Returns:'] as const;

/** The script in `file` (a file: URL, e.g. `new URL('./<script>.lua', import.meta.url)`, or a path) with its includes resolved. */
export function luaFile(file: URL | string): LuaScript {
  const path = typeof file === 'string' ? resolve(file) : fileURLToPath(file);
  const source = read(path, 'a script');
  const missing = HEADER.filter((label) => !leadingComments(source).some((line) => line.startsWith(label)));
  if (missing.length > 0) throw new Error(`${path}: a Lua script's header names its KEYS, ARGV and what it returns; missing ${missing.join(', ')}`);
  return lua(expand(path, source, new Set([path])));
}

function read(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`${path}: cannot read ${what} (${(err as Error).message})`);
  }
}

/** The comment lines the file opens with (after a `#!lua` line). */
function leadingComments(source: string): string[] {
  const lines = source.split('\n');
  if (SHEBANG.test(lines[0] ?? '')) lines.shift();
  const out: string[] = [];
  for (const line of lines) {
    if (!line.startsWith('--')) break;
    out.push(line);
  }
  return out;
}

function expand(path: string, source: string, seen: Set<string>): string {
  return source
    .split('\n')
    .map((line) => {
      const match = INCLUDE.exec(line);
      if (!match) return line;
      const included = resolve(dirname(path), match[1]!);
      if (seen.has(included)) return `-- (${match[1]} is included above)`;
      seen.add(included);
      const text = read(included, `the file included by ${path}`);
      if (SHEBANG.test(text)) throw new Error(`${included}: an included file cannot carry #!lua (only a script's first line may)`);
      return expand(included, text.replace(/\n$/, ''), seen);
    })
    .join('\n');
}
