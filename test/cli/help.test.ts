// The top-level help is made from the commands' own usage texts: every command and every form of
// it is listed once, and every option any command's usage names is in it, so an option added to a
// command cannot be missing from `switchboard help`.
import { describe, expect, it } from 'vitest';
import { SERVE_USAGE, WORKER_USAGE, commandForms, form, helpFor, topLevelUsage } from '../../src/cli/help.js';
import { OPERATOR_COMMAND_NAMES, operatorUsage } from '../../src/cli/operator.js';
import { RESTORE_USAGE } from '../../src/cli/restore.js';

const help = topLevelUsage();
const usages = [SERVE_USAGE, WORKER_USAGE, RESTORE_USAGE, ...OPERATOR_COMMAND_NAMES.map(operatorUsage)];
/** The help's lines, each continuation joined to the line it continues. */
const helpForms = help.split('\n').reduce<string[]>((out, line) => {
  if (/^ {4,}\S/.test(line) && out.length) out[out.length - 1] += ` ${line.trim()}`;
  else out.push(line.trim());
  return out;
}, []);

describe('switchboard help', () => {
  it('lists every option any command usage names', () => {
    const options = new Set(usages.flatMap((u) => u.match(/--[a-z][a-z-]*/g) ?? []));
    expect(options.size).toBeGreaterThan(30);
    const missing = [...options].filter((o) => !new RegExp(`${o}(?![a-z-])`).test(help));
    expect(missing).toEqual([]);
  });

  it('lists every command and every form of it, each exactly once', () => {
    for (const name of ['serve', 'worker', 'restore', 'help', '--version', ...OPERATOR_COMMAND_NAMES]) {
      expect(helpForms.some((l) => l === name || l.startsWith(`${name} `)), name).toBe(true);
    }
    const forms = usages.flatMap((u) => commandForms(u).map(form));
    expect(forms.length).toBeGreaterThan(40);
    for (const f of forms) expect(helpForms.filter((l) => l === f || l.startsWith(`${f}   `)), f).toHaveLength(1);
    // Forms the hand-written help had left out.
    expect(helpForms).toContain('users reset-password --account ID --email EMAIL [--json]');
    expect(helpForms).toContain('automations webhook AUTOMATION_ID --account ID');
    expect(helpForms).toContain('seed --schema');
  });

  it('keeps the store and exit code paragraphs', () => {
    expect(help).toMatch(/^Store: PostgreSQL when DATABASE_URL is set/m);
    expect(help).toMatch(/^Exit codes: 0 done, 1 refused or failed, 2 bad usage\.$/m);
  });

  it('help COMMAND is the command\'s own usage, anything else the top-level help', () => {
    expect(helpFor('automations')).toBe(operatorUsage('automations'));
    expect(helpFor('automations')).toContain('switchboard automations webhook');
    expect(helpFor('serve')).toBe(SERVE_USAGE);
    expect(helpFor('worker')).toBe(WORKER_USAGE);
    expect(helpFor('restore')).toBe(RESTORE_USAGE);
    expect(helpFor('backup')).toContain('switchboard backup FILE');
    expect(helpFor('nope')).toBe(help);
    expect(helpFor(undefined)).toBe(help);
  });
});
