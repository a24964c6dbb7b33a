#!/usr/bin/env python3
"""Kernel instructions per sample, function by function (scripts/insnprof.sh).

Usage: insnprof.py NM VMLINUX SNAPSHOTS [FIRST]

SNAPSHOTS is what scripts/insnprof.c wrote: cumulative counts per
translation block, one snapshot per pass through the mark. Each window
between two snapshots in which perf_prepare_sample() ran at least 100 times
is one row of the benchmark, in order; the windows before window FIRST
(0 unless given) are printed and left out of the comparisons, which
start from it. For each window the instructions
per sample of each function (a block counts for the function it starts
in), and calls per sample (runs of the block at the function's start);
for every window after window FIRST, what the sample path's functions
cost more per sample than in it: those called a whole number of times
more per sample (within 0.03) in every later window. The sum of every
other function follows: what else each window held per sample (ticks,
the reader's wakeups, the child's fork and exit, the copies that the
sample path shares with the rest of the kernel, memmove() for one).
"""
import bisect
import subprocess
import sys

SAMPLE_FN = "perf_prepare_sample"
MIN_SAMPLES = 100
WHOLE = 0.03


def symbols(nm, vmlinux):
    out = subprocess.run([nm, "-n", vmlinux], capture_output=True, text=True,
                         check=True).stdout
    addrs, names = [], []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            addrs.append(int(f[0], 16))
            names.append(f[2])
    return addrs, names


def snapshots(path):
    snaps, cur = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("snap"):
                cur = {}
                snaps.append(cur)
                continue
            va, insns, execs = line.split()
            key = int(va, 16)
            i, e = cur.get(key, (0, 0))
            cur[key] = (i + int(insns), e + int(execs))
    return snaps


def by_function(delta, addrs, names):
    insns, calls = {}, {}
    for va, (i, e) in delta.items():
        k = bisect.bisect_right(addrs, va) - 1
        name = names[k] if k >= 0 else "?"
        insns[name] = insns.get(name, 0) + i
        if k >= 0 and addrs[k] == va:
            calls[name] = calls.get(name, 0) + e
    return insns, calls


def main():
    nm, vmlinux, path = sys.argv[1:4]
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    addrs, names = symbols(nm, vmlinux)
    snaps = snapshots(path)
    windows = []
    prev = {}
    for s in snaps:
        delta = {}
        for va, (i, e) in s.items():
            pi, pe = prev.get(va, (0, 0))
            if i - pi:
                delta[va] = (i - pi, e - pe)
        prev = s
        insns, calls = by_function(delta, addrs, names)
        n = calls.get(SAMPLE_FN, 0)
        if n >= MIN_SAMPLES:
            windows.append((n, insns, calls))
    if not windows:
        sys.exit("insnprof: no window with %d samples" % MIN_SAMPLES)

    for w, (n, insns, calls) in enumerate(windows):
        total = sum(insns.values())
        print("\n## window %d: %d samples, %.1f kernel instructions per sample;"
              " %d faults on mmap pages (perf_mmap_fault())"
              % (w, n, total / n, calls.get("perf_mmap_fault", 0)))
        print("%-40s %10s %10s" % ("function", "insns/smp", "calls/smp"))
        for name, i in sorted(insns.items(), key=lambda x: -x[1])[:25]:
            print("%-40s %10.1f %10.2f" % (name, i / n, calls.get(name, 0) / n))

    if first >= len(windows):
        sys.exit("insnprof: no window %d" % first)
    n0, insns0, calls0 = windows[first]
    later = range(first + 1, len(windows))

    def dcalls(w, name):
        n, _, calls = windows[w]
        return calls.get(name, 0) / n - calls0.get(name, 0) / n0

    # The sample path's functions: called a whole number of times more
    # per sample than in window FIRST, in every window after it.
    # Ticks, the reader's wakeups and the child's fork and exit come to
    # fractions of a call per sample, which vary from window to window.
    names = set()
    for w in [first, *later]:
        names |= set(windows[w][1])
    path = set()
    for name in names:
        cs = [dcalls(w, name) for w in later]
        if any(abs(c) >= 0.5 for c in cs) and \
           all(abs(c - round(c)) <= WHOLE for c in cs):
            path.add(name)

    for w in later:
        n, insns, calls = windows[w]
        total = sum(insns.values()) / n - sum(insns0.values()) / n0
        print("\n## window %d against window %d: %+.1f instructions per sample"
              % (w, first, total))
        print("%-40s %10s %10s %10s" % ("function", "insns/smp", "calls/smp",
                                         "insns/call"))
        diff = []
        for name in names:
            d = insns.get(name, 0) / n - insns0.get(name, 0) / n0
            diff.append((d, dcalls(w, name), name))
        inpath = rest = 0
        for d, c, name in sorted(diff, key=lambda x: -abs(x[0])):
            if name not in path:
                rest += d
                continue
            inpath += d
            if abs(d) < 0.05:
                continue
            per = insns.get(name, 0) / calls[name] if calls.get(name) else 0
            print("%-40s %+10.1f %+10.2f %10.1f" % (name, d, c, per))
        print("%-40s %+10.1f" % ("(the functions above)", inpath))
        print("%-40s %+10.1f" % ("(every other function)", rest))

if __name__ == "__main__":
    main()
