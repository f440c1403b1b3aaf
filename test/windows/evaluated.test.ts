// The compiled ACL plans, applied to a modelled profile and checked with
// the tests' Windows access check (access-check.ts: Samba's DACL check,
// the restricting SIDs, mandatory integrity): one test per finding of the
// evaluator and of the review of the plans (issue 23), each on a config
// written for it, each asking what a principal's token gets where the
// model's Windows cell (and so explain) says something. The differential
// test (model-vs-access-check.test.ts) finds such classes on generated
// configs; these pin each one down.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { compileText } from '../compile-helpers.js';
import { requireOrSkip } from '../helpers.js';
import { legend } from '../../model/cell.js';
import type { AclPlan } from '../../targets/windows/index.js';
import {
  accessCheck,
  FILE_EXECUTE,
  FILE_READ_DATA,
  FILE_WRITE_DATA,
  ProfileTree,
  sambaAvailable,
  sessionSid,
  type AccessQuery,
} from './access-check.js';

const skip = requireOrSkip(sambaAvailable(), 'python3-samba (Debian: apt-get install python3-samba)');

/** The objects under the examples' home (/home/dev) the configs below name, as Windows paths under %USERPROFILE%. */
const OBJECTS = [
  { rel: 'project', dir: true },
  { rel: 'project\\README.md', dir: false },
  { rel: 'project\\output', dir: true },
  { rel: 'project\\.env', dir: false },
  { rel: 'results', dir: true },
  { rel: 'results\\output.txt', dir: false },
  { rel: 'AppData\\Roaming\\gnupg\\pubring.kbx', dir: false },
  { rel: 'AppData\\Roaming\\gcloud\\credentials.db', dir: false },
  { rel: 'AppData\\Roaming\\GitHub CLI\\hosts.yml', dir: false },
  { rel: '.cargo\\credentials.toml', dir: false },
  { rel: '_netrc', dir: false },
];

interface Case {
  readonly toml: string;
  readonly extra: Parameters<typeof compileText>[2];
  /** Principal id → POSIX path under /home/dev → the model's legend and the token's. */
  result?: Record<string, Record<string, { model: string; token: string }>>;
  readonly paths: readonly string[];
}
const cases: Case[] = [];
function windowsCase(toml: string, paths: readonly string[], extra: Case['extra'] = {}): () => NonNullable<Case['result']> {
  const c: Case = { toml, paths, extra };
  cases.push(c);
  return () => c.result!;
}

/** Every case compiled, applied and checked, in one Samba process. */
async function answerAll(): Promise<void> {
  const queries: AccessQuery[] = [];
  const pending: (() => void)[] = [];
  for (const c of cases) {
    const outcome = await compileText(c.toml, 'windows', c.extra);
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
    const plan = JSON.parse(outcome.artifacts.find((a) => a.name === 'acl-plan.json')!.content as string) as AclPlan;
    const tree = new ProfileTree(OBJECTS);
    tree.apply(plan);
    const model = outcome.check.model;
    const result: NonNullable<Case['result']> = {};
    model.principals.forEach((pa, i) => {
      for (const path of c.paths) {
        // A path under the home, or a name the plan expands (%TEMP%).
        const node = tree.find(path.startsWith('%') ? path : `%USERPROFILE%\\${path.slice('/home/dev/'.length).replace(/\//g, '\\')}`);
        assert.ok(node, `the modelled profile has no ${path}`);
        const first = queries.length;
        for (const mask of [FILE_READ_DATA, FILE_WRITE_DATA, FILE_EXECUTE])
          queries.push({ tree, node, mask, restrictingSid: sessionSid(i + 1) });
        pending.push(() => {
          const [r, w, x] = answers.slice(first, first + 3);
          (result[pa.principal.id] ??= {})[path] = {
            model: legend(pa.effectiveAt(path, 'windows')),
            token: (r ? 'r' : '') + (w ? 'w' : '') + (x ? 'x' : '') || '—',
          };
        });
      }
    });
    c.result = result;
  }
  const answers = accessCheck(queries);
  for (const p of pending) p();
}

const ownDeny = windowsCase('[agent.filesystem]\nwrite = ["~/project"]\nread = ["~/project"]\ndeny = ["~/project/.env"]\n', [
  '/home/dev/project/.env',
  '/home/dev/project/README.md',
]);
const othersDeny = windowsCase(
  '[agent.filesystem]\ndeny = ["~/project"]\n\n[tools.t1.filesystem]\nwrite = ["~/project"]\nread = ["~/project"]\n',
  ['/home/dev/project', '/home/dev/project/README.md', '/home/dev/results/output.txt'],
);
const tempUnderDataDir = windowsCase('[sandbox]\nread_allow = []\n', ['%TEMP%', '/home/dev/project/README.md'], {
  'tyba-data-dir': '/home/dev',
});
const privateTemp = windowsCase(
  '[agent.filesystem]\nread = ["~/project"]\nprivate_tmp = true\n\n[tools.fmt.filesystem]\nread = ["~/project"]\nprivate_tmp = true\n\n[tools.lint.filesystem]\nread = ["~/project"]\n',
  ['%TEMP%\\boxwright-tmp-agent', '%TEMP%\\boxwright-tmp-tool.fmt', '%TEMP%', '/home/dev/project/README.md'],
);
const spellings = windowsCase('[agent.filesystem]\nread = ["~"]\n', [
  '/home/dev/AppData/Roaming/gnupg/pubring.kbx',
  '/home/dev/AppData/Roaming/gcloud/credentials.db',
  '/home/dev/AppData/Roaming/GitHub CLI/hosts.yml',
  '/home/dev/.cargo/credentials.toml',
  '/home/dev/_netrc',
  '/home/dev/results/output.txt',
]);

describe('windows plans, evaluated: what explain says is what the token gets', { skip }, () => {
  before(answerAll);

  it('a deny label shuts the Low token out of reading, writing and running the denied file, as explain says (—)', () => {
    assert.deepEqual(ownDeny().agent!['/home/dev/project/.env'], { model: '—', token: '—' });
    assert.deepEqual(ownDeny().agent!['/home/dev/project/README.md'], { model: 'rwx', token: 'rwx' });
  });

  it("one principal's deny label shuts the others out too, and their cells say so, with the rule's warning", () => {
    const r = othersDeny();
    assert.deepEqual(r['tool.t1']!['/home/dev/project/README.md'], { model: '—', token: '—' });
    assert.deepEqual(r['tool.t1']!['/home/dev/project'], { model: '—', token: '—' });
    assert.deepEqual(r['tool.t1']!['/home/dev/results/output.txt'], { model: 'rx', token: 'rx' });
    assert.deepEqual(r.agent!['/home/dev/project/README.md'], { model: '—', token: '—' });
  });

  it("private_tmp: each principal writes its own directory that apply.ps1 made, no other's, and not the user's shared %TEMP%", () => {
    const r = privateTemp();
    assert.deepEqual(r.agent!['%TEMP%\\boxwright-tmp-agent'], { model: 'rwx', token: 'rwx' });
    assert.deepEqual(r.agent!['%TEMP%\\boxwright-tmp-tool.fmt'], { model: 'rx', token: 'rx' });
    assert.deepEqual(r['tool.fmt']!['%TEMP%\\boxwright-tmp-tool.fmt'], { model: 'rwx', token: 'rwx' });
    // The control: a principal without private_tmp writes neither directory; nobody writes the user's %TEMP%.
    assert.deepEqual(r['tool.lint']!['%TEMP%\\boxwright-tmp-agent'], { model: 'rx', token: 'rx' });
    for (const id of ['agent', 'tool.fmt', 'tool.lint']) assert.deepEqual(r[id]!['%TEMP%'], { model: 'rx', token: 'rx' }, id);
  });

  it("private_tmp: apply.ps1 refuses a directory already there (an earlier apply, or not boxwright's), and the plan says TMP and TEMP", async () => {
    const outcome = await compileText('[agent.filesystem]\nread = ["~/project"]\nprivate_tmp = true\n', 'windows');
    assert.ok(outcome.ok);
    const plan = JSON.parse(outcome.artifacts.find((a) => a.name === 'acl-plan.json')!.content as string) as AclPlan;
    const temp = '%TEMP%\\boxwright-tmp-agent';
    assert.deepEqual(plan.principals[0]!.privateTemp, { path: temp, env: { TMP: temp, TEMP: temp } });
    assert.throws(
      () => new ProfileTree([...OBJECTS, { rel: 'AppData\\Local\\Temp\\boxwright-tmp-agent', dir: true }]).apply(plan),
      /already exists/,
    );
  });

  it('%TEMP% at its default place under the home: a label above it (a TYBA data directory of ~) covers it, and explain says so', () => {
    assert.deepEqual(tempUnderDataDir().agent!['%TEMP%'], { model: '—', token: '—' });
  });

  it('the listed secrets where Windows tools keep them (Gpg4win, gcloud, gh, curl, cargo) are labelled and denied, as explain says', () => {
    const r = spellings().agent!;
    for (const p of [
      '/home/dev/AppData/Roaming/gnupg/pubring.kbx',
      '/home/dev/AppData/Roaming/gcloud/credentials.db',
      '/home/dev/AppData/Roaming/GitHub CLI/hosts.yml',
      '/home/dev/.cargo/credentials.toml',
      '/home/dev/_netrc',
    ])
      assert.deepEqual(r[p], { model: '—', token: '—' }, p);
    assert.deepEqual(r['/home/dev/results/output.txt'], { model: 'rx', token: 'rx' });
  });
});
