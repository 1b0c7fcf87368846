/** Structure rules of architecture.md that ESLint cannot express: kebab-case file names, no barrel index files. */
import { readdirSync } from 'node:fs';
import path from 'node:path';

const problems = [];
function walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!/^[a-z0-9][a-z0-9-]*$|^zh-CN$|^en-US$|^__\w+__$/.test(e.name)) problems.push(`folder not kebab-case: ${p}`);
      walk(p);
      continue;
    }
    if (/^index\.(ts|tsx|js|mjs)$/.test(e.name)) problems.push(`barrel index file: ${p}`);
    if (/\.(ts|tsx|mjs|js)$/.test(e.name) && !/^[a-z0-9][a-z0-9-]*(\.[a-z0-9-]+)*\.(ts|tsx|mjs|js)$/.test(e.name) && !/^\d{12}_[a-z0-9_]+\.ts$/.test(e.name))
      problems.push(`file not kebab-case: ${p}`);
  }
}
for (const d of ['src', 'sw', 'tests']) walk(d);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('structure ok');
