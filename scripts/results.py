#!/usr/bin/env python3
"""Turn what the harness saw into TAP files, and TAP files into a summary.

  results.py guest ARCH
      Parse build/results/ARCH/console.log (the protocol is described in
      guest/runner.c) into one TAP file per suite of the plan, plus kunit.tap
      (the KUnit suites built into the kernel) and guest.tap (the guest booted,
      finished and printed no oops, WARN, BUG, KASAN or lockdep splat).
  results.py step ARCH SUITE TEST RC SECONDS [LOG]
      Record one harness step (a build, say) as a one-test TAP file,
      SUITE-TEST.tap.
  results.py summary
      Print the table of every TAP file under build/results and the closing
      'N passed, N failed, N skipped' line; exit 1 on any failure.

Failures that known-limitations lists are reported as skipped, with the
reason. Every TAP file's top-level 'ok'/'not ok' lines are what is counted.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, 'build', 'results')
ARCHES = ['-', 'x86_64', 'x86_64-avx512', 'x86_64-kasan', 'arm64', 'arm64-icount', 'ppc64le']

# Kernel lines a guest must print: the setup its tests rely on. Without
# them a guest could pass while testing less than it claims to.
REQUIRED = {
    'arm64': [('pmu_interrupts_are_nmis',
               re.compile(r'GICv3: Pseudo-NMIs enabled')),
              ('pmu_interrupts_are_nmis',
               re.compile(r'hw perfevents: enabled with armv8_pmuv3.* using NMIs'))],
    'x86_64-avx512': [('avx512_state_is_enabled',
                       re.compile(r'x86/fpu: Enabled xstate features 0x([0-9a-f]+)'),
                       lambda m: int(m.group(1), 16) & 0xe0 == 0xe0)],
}
REQUIRED['arm64-icount'] = REQUIRED['arm64']

# Kernel warnings a guest is known to print, each with why it is harmless
# there. Matched on the WARNING line, for that guest only; any other splat
# still fails the guest.
EXPECTED_WARNINGS = {
    'x86_64-avx512': [(re.compile(r'^WARNING: CPU: 0 PID: 0 at \S*arch/x86/kernel/cpu/topology_common\.c:\d+ parse_legacy\+'),
                       "Bochs 2.7 reports 8 cores in CPUID leaf 4 but fewer logical CPUs in "
                       "leaf 1 with HT set, which parse_legacy() warns about once at boot "
                       "(cpu: count=1:2:1 would avoid it, with two slower CPUs)")],
}

HARNESS_LOG = re.compile(r'^# [\w.-]+\.c:\d+:[^:]*:')
HARNESS_FAIL = re.compile(r'^# [\w.-]+\.c:\d+:[^:]*:Expected ')
TAP_RESULT = re.compile(r'^(not )?ok \d+ (.*?)(?:\s+#\s*(SKIP|skip|XFAIL|TODO)\b\s*(.*))?$')
KTAP_RESULT = re.compile(r'^(\s*)(not )?ok \d+ (.*?)(?:\s+#\s*(SKIP|skip)\b\s*(.*))?$')
KTAP_SUBTEST = re.compile(r'^(\s*)# Subtest: (.*)$')
KTAP_LINE = re.compile(r'^\s*(KTAP version|TAP version|# Subtest:|(not )?ok \d|1\.\.\d|# )')
TIMESTAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
SPLAT = re.compile(
    r'(Kernel panic|Oops[: ]|kernel BUG at|BUG: |WARNING: |------------\[ cut here \]'
    r'|general protection fault|Unable to handle kernel|KASAN|UBSAN'
    r'|INFO: task .* blocked|soft lockup|hard LOCKUP|rcu: INFO:|detected stall'
    r'|possible circular locking|possible recursive locking|inconsistent lock state'
    r'|Call Trace:|Internal error:)')


def base_version():
    try:
        out = subprocess.run([os.path.join(ROOT, 'scripts', 'base-version.sh')],
                             capture_output=True, text=True, check=False).stdout
        return out.strip() or 'unknown'
    except OSError:
        return 'unknown'


class Tap:
    """One TAP file: a flat list of results, each with comment lines."""

    def __init__(self, suite, arch):
        self.suite, self.arch = suite, arch
        self.items = []
        self.seconds = 0.0

    def add(self, status, name, reason='', output=()):
        """status: 'ok', 'fail' or 'skip'."""
        self.items.append((status, name, reason, list(output)))

    def write(self, header=''):
        os.makedirs(os.path.join(RESULTS, self.arch), exist_ok=True)
        path = os.path.join(RESULTS, self.arch, self.suite + '.tap')
        with open(path, 'w') as f:
            f.write('TAP version 13\n')
            f.write('# suite: %s, arch: %s, base: %s%s\n'
                    % (self.suite, self.arch, base_version(), header))
            f.write('# time: %.1f\n' % self.seconds)
            f.write('1..%d\n' % len(self.items))
            for i, (status, name, reason, output) in enumerate(self.items, 1):
                for line in output:
                    f.write('# %s\n' % line if line else '#\n')
                if status == 'ok':
                    f.write('ok %d %s\n' % (i, name))
                elif status == 'skip':
                    f.write('ok %d %s # SKIP %s\n' % (i, name, reason))
                else:
                    f.write('not ok %d %s%s\n' % (i, name, ' # ' + reason if reason else ''))
        return path


def known_limitations(arch):
    table = {}
    with open(os.path.join(ROOT, 'known-limitations')) as f:
        for line in f:
            line = line.split('#', 1)[0].strip() if line.lstrip().startswith('#') else line.strip()
            if not line:
                continue
            parts = line.split(None, 3)
            if len(parts) < 4:
                sys.exit('known-limitations: a line needs ARCH SUITE TEST REASON: ' + line)
            a, suite, test, reason = parts
            # A sanitizer variant runs on the same emulated machine.
            if a in (arch, arch.replace('-kasan', ''), '*'):
                table[(suite, test)] = reason
    return table


def excuse(tap, table):
    """Report known-limitation failures as skips with their reason."""
    items = []
    for status, name, reason, output in tap.items:
        why = None
        for (suite, test), r in table.items():
            if suite == tap.suite and (name == test or name.startswith(test + '/')):
                why = r
        if why and status == 'fail':
            output = output + ['failed (%s), a known limitation' % (reason or 'failure')]
            status, reason = 'skip', 'known limitation: ' + why
        elif why and status == 'ok':
            output = output + ['listed as a known limitation, but passed']
        items.append((status, name, reason, output))
    tap.items = items


def parse_plan(path):
    plan = []
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith('#') or words[0].startswith('@'):
                continue
            plan.append((words[0], words[1]))
    return plan


def plan_skips(path):
    """The plan's '@skip SUITE NAME REASON' lines: tests not run, and why."""
    skips = []
    with open(path) as f:
        for line in f:
            words = line.split(None, 3)
            if len(words) == 4 and words[0] == '@skip':
                skips.append((words[1], words[2], words[3].strip()))
    return skips


def first_failed_check(case):
    """What kselftest_harness.h printed for a case's first failed check,
    'FILE.c:LINE:CASE:Expected ...', with the TH_LOG() line after it."""
    for i, line in enumerate(case):
        if HARNESS_FAIL.match(line):
            why = line[2:].strip()
            if i + 1 < len(case) and HARNESS_LOG.match(case[i + 1]) and \
               not HARNESS_FAIL.match(case[i + 1]):
                why += ': ' + case[i + 1].split(':', 3)[-1].strip()
            return why[:300]
    return ''


def test_results(name, output, rc, timed_out, secs):
    """The results of one test program, from its output and exit status."""
    results, case = [], []
    for line in output:
        m = TAP_RESULT.match(line)
        if not m:
            # A harness case's own lines, from its '#  RUN' on
            if line.startswith('#  RUN '):
                case = []
            case.append(line)
            continue
        sub = '%s/%s' % (name, m.group(2))
        if m.group(3) and m.group(3).upper() == 'SKIP':
            results.append(('skip', sub, m.group(4) or 'skipped'))
        elif m.group(1):
            results.append(('fail', sub, first_failed_check(case)))
        else:
            results.append(('ok', sub, ''))
        case = []
    failed = any(r[0] == 'fail' for r in results)
    if timed_out:
        results.append(('fail', name, 'timed out after %.0fs' % secs))
    elif results:
        if rc not in (0, 4) and not failed:
            results.append(('fail', name, 'exit status %d' % rc))
    elif rc == 0:
        skip = [l for l in output if l.startswith('skip: ')]
        if skip:
            why = [l for l in output if '[SKIP]' in l] or skip
            results.append(('skip', name, why[-1].strip()))
        else:
            results.append(('ok', name, ''))
    elif rc == 4:
        why = [l for l in output if l.strip()] or ['exit status 4 (skip)']
        results.append(('skip', name, why[-1].strip().lstrip('# ')))
    else:
        results.append(('fail', name, 'exit status %d' % rc))
    return results


def parse_console(lines):
    """Split the console into kernel lines and test blocks."""
    kernel, blocks, started = [], {}, []
    block, in_dmesg, done = None, False, False
    end_re = re.compile(r'^@@@ end (\S+) (\S+) rc=(-?\d+) secs=([\d.]+)( timeout)?')
    for raw in lines:
        line = raw.rstrip('\r\n').replace('\r', '')
        if block is not None:
            m = end_re.match(line)
            if m:
                block['rc'] = int(m.group(3))
                block['secs'] = float(m.group(4))
                block['timeout'] = bool(m.group(5))
                blocks[(m.group(1), m.group(2))] = block
                block = None
            else:
                block['output'].append(line)
            continue
        if line.startswith('@@@ start '):
            started.append(tuple(line.split()[2:4]))
        elif line.startswith('@@@ alive '):
            pass
        elif line.startswith('@@@ begin '):
            block = {'output': []}
        elif line == '@@@ dmesg begin':
            in_dmesg = True
        elif line == '@@@ dmesg end':
            in_dmesg = False
        elif line == '@@@ done':
            done = True
        else:
            kernel.append((TIMESTAMP.sub('', line), in_dmesg))
    return kernel, blocks, started, done


def kunit_results(kernel):
    """Leaf results of the KTAP the KUnit suites printed at boot."""
    ktap = [l for l, in_dmesg in kernel if not in_dmesg and KTAP_LINE.match(l)]
    headers, results, last_depth = {}, [], None
    for line in ktap:
        m = KTAP_SUBTEST.match(line)
        if m:
            depth = len(m.group(1))
            headers = {d: n for d, n in headers.items() if d < depth}
            headers[depth] = m.group(2).strip()
            continue
        m = KTAP_RESULT.match(line)
        if not m:
            continue
        depth = len(m.group(1))
        parent = last_depth is not None and last_depth > depth
        last_depth = depth
        headers = {d: n for d, n in headers.items() if d <= depth}
        if parent:
            # A suite's or parameterised case's own line: its cases,
            # counted already, came just before it.
            continue
        path = [headers[d] for d in sorted(headers)] + [m.group(3)]
        if m.group(4):
            status, reason = 'skip', m.group(5) or 'skipped'
        else:
            status, reason = ('fail' if m.group(2) else 'ok'), ''
        results.append((depth, '/'.join(path), status, reason))
    return ktap, [(s, n, r) for _, n, s, r in results]


def excused_warnings(lines, table):
    """The WARN blocks that @table excuses: (reason, WARNING line, indexes)."""
    found = []
    # The kernel log dump at the end repeats each line with its level.
    bare = [re.sub(r'^<\d>', '', l) for l in lines]
    for i, line in enumerate(bare):
        for pat, reason in table:
            if not pat.search(line):
                continue
            start = i - 1 if i and 'cut here' in bare[i - 1] else i
            end = next((j for j in range(i, len(bare))
                        if bare[j].startswith('---[ end trace')), None)
            if end is None:
                continue
            prev = next((f for f in found if f[1] == line), None)
            if prev:
                prev[2].update(range(start, end + 1))
            else:
                found.append((reason, line, set(range(start, end + 1))))
    return found


def kunit_enabled(arch):
    # x86_64-avx512 boots the x86_64 kernel under another emulator.
    kernel = 'x86_64' if arch == 'x86_64-avx512' else arch
    try:
        with open(os.path.join(ROOT, 'build', 'obj', kernel, '.config')) as f:
            return 'CONFIG_KUNIT=y\n' in f.read()
    except OSError:
        return False


def guest(arch):
    res = os.path.join(RESULTS, arch)

    def read(name, default=''):
        try:
            with open(os.path.join(res, name), errors='replace') as f:
                return f.read().strip()
        except OSError:
            return default

    try:
        with open(os.path.join(res, 'console.log'), errors='replace') as f:
            console = f.readlines()
    except OSError:
        console = []
    kernel, blocks, started, done = parse_console(console)
    accel = read('accel', 'unknown')
    header = ', guest: %s' % accel
    table = known_limitations(arch)
    tail = [l.rstrip('\r\n') for l in console[-40:]]

    taps = {}
    for suite, name in parse_plan(os.path.join(res, 'plan')):
        tap = taps.setdefault(suite, Tap(suite, arch))
        b = blocks.get((suite, name))
        if b is None:
            why = ('the guest stopped while it ran' if (suite, name) in started
                   else 'not run: the guest stopped before it')
            tap.add('fail', name, why)
            continue
        tap.seconds += b['secs']
        results = test_results(name, b['output'], b['rc'], b['timeout'], b['secs'])
        for i, (status, sub, reason) in enumerate(results):
            tap.add(status, sub, reason, b['output'] if i == 0 else ())
    for suite, name, reason in plan_skips(os.path.join(res, 'plan')):
        taps.setdefault(suite, Tap(suite, arch)).add('skip', name, 'not run: ' + reason)
    for tap in taps.values():
        excuse(tap, table)
        tap.write(header)

    # A guest such as arm64-icount reruns a kernel whose KUnit suites the
    # plain guest already counted.
    if not arch.endswith('-icount') and kunit_enabled(arch):
        tap = Tap('kunit', arch)
        ktap, results = kunit_results(kernel)
        for status, name, reason in results:
            tap.add(status, name, reason)
        if not results:
            tap.add('fail', 'kunit', 'no KUnit results on the console', tail)
        excuse(tap, table)
        tap.write(header)

    tap = Tap('guest', arch)
    try:
        tap.seconds = float(read('boot-seconds', '0'))
    except ValueError:
        pass
    rc = read('qemu-rc', '?')
    stalled = read('stalled')
    if done:
        tap.add('ok', 'boots_runs_its_plan_and_exits')
    elif stalled:
        tap.add('fail', 'boots_runs_its_plan_and_exits',
                'stalled: %s; stopped, last console lines above' % stalled, tail)
    elif rc in ('124', '137'):
        tap.add('fail', 'boots_runs_its_plan_and_exits',
                'timed out; last console lines above', tail)
    else:
        tap.add('fail', 'boots_runs_its_plan_and_exits',
                'stopped early (qemu exit %s); last console lines above' % rc, tail)
    for req in REQUIRED.get(arch, []):
        name, pat, check = req[0], req[1], (req[2] if len(req) > 2 else None)
        m = next((m for m in (pat.search(l) for l, _ in kernel) if m), None)
        if m and (check is None or check(m)):
            tap.add('ok', name)
        else:
            tap.add('fail', name, 'no kernel line matches /%s/%s'
                    % (pat.pattern, '' if m is None else ' with the right value'))
    lines = [l for l, _ in kernel]
    excused = excused_warnings(lines, EXPECTED_WARNINGS.get(arch, []))
    for reason, first, _ in excused:
        tap.add('skip', 'kernel_log_known_warning', 'known warning: ' + reason, [first])
    splats = [l for i, l in enumerate(lines)
              if SPLAT.search(l) and i not in {j for _, _, idx in excused for j in idx}]
    if splats:
        first = [l for l, _ in kernel]
        i = first.index(splats[0])
        tap.add('fail', 'kernel_log_has_no_oops_warn_bug_or_lockdep',
                '%d suspicious kernel lines; the first shown above' % len(splats),
                first[max(0, i - 5):i + 30])
    else:
        tap.add('ok', 'kernel_log_has_no_oops_warn_bug_or_lockdep')
    tap.write(header)


def step(arch, suite, test, rc, secs, log=None):
    tap = Tap('%s-%s' % (suite, test), arch)
    tap.seconds = float(secs)
    output = []
    if log and os.path.exists(log) and rc != '0':
        with open(log, errors='replace') as f:
            output = [l.rstrip('\n') for l in f.readlines()[-30:]]
    tap.add('ok' if rc == '0' else 'fail', test,
            '' if rc == '0' else 'exit status %s; last lines above' % rc, output)
    tap.write()


def read_tap(path):
    counts = {'ok': 0, 'fail': 0, 'skip': 0}
    fails, secs, header = [], 0.0, ''
    comments = []
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('# time: '):
                secs = float(line[8:])
                continue
            if line.startswith('# suite: '):
                header = line
                continue
            if line.startswith('#'):
                comments.append(line[2:])
                continue
            m = TAP_RESULT.match(line)
            if not m:
                continue
            if m.group(3) and m.group(3).upper() == 'SKIP':
                counts['skip'] += 1
            elif m.group(1):
                counts['fail'] += 1
                name, _, reason = m.group(2).partition(' # ')
                fails.append((name, reason, comments))
            else:
                counts['ok'] += 1
            comments = []
    return counts, secs, fails, header


def summary():
    rows = []
    for arch in os.listdir(RESULTS) if os.path.isdir(RESULTS) else []:
        d = os.path.join(RESULTS, arch)
        if not os.path.isdir(d):
            continue
        for name in os.listdir(d):
            if name.endswith('.tap'):
                path = os.path.join(d, name)
                rank = ARCHES.index(arch) if arch in ARCHES else len(ARCHES)
                rows.append((rank, os.path.getmtime(path), arch, name[:-4], path))
    rows.sort()
    total = {'ok': 0, 'fail': 0, 'skip': 0}
    print('%-16s %-13s %7s %7s %8s %8s' % ('suite', 'arch', 'passed', 'failed', 'skipped', 'seconds'))
    failures, skips, accel = [], [], {}
    for _, _, arch, suite, path in rows:
        counts, secs, fails, header = read_tap(path)
        m = re.search(r'guest: (.*)$', header)
        if m:
            accel[arch] = m.group(1)
        for k in total:
            total[k] += counts[k]
        print('%-16s %-13s %7d %7d %8d %8.0f'
              % (suite, arch, counts['ok'], counts['fail'], counts['skip'], secs))
        for name, reason, output in fails:
            failures.append((arch, suite, name, reason, output))
        with open(path, errors='replace') as f:
            for line in f:
                m = TAP_RESULT.match(line.rstrip('\n'))
                if m and m.group(3) and m.group(3).upper() == 'SKIP':
                    skips.append('%s %s %s: %s' % (arch, suite, m.group(2), m.group(4)))
    print()
    print('base: %s' % base_version())
    for arch in ARCHES[1:]:
        if arch in accel:
            print('%s guest: %s' % (arch, accel[arch]))
    if skips:
        print('\nskipped:')
        for s in skips:
            print('  ' + s)
    if failures:
        print('\nfailed:')
        for arch, suite, name, reason, output in failures:
            print('  %s %s %s: %s' % (arch, suite, name, reason or 'failed'))
            if suite in ('guest', 'hygiene', 'kunit') or '-' in suite or len(output) <= 40:
                for line in output[-40:]:
                    print('    | ' + line)
    print('\n%d passed, %d failed, %d skipped' % (total['ok'], total['fail'], total['skip']))
    return 1 if total['fail'] or not rows else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == 'guest':
        guest(argv[2])
        return 0
    if len(argv) >= 7 and argv[1] == 'step':
        step(*argv[2:8])
        return 0
    if len(argv) == 2 and argv[1] == 'summary':
        return summary()
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
