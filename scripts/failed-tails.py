#!/usr/bin/python3
"""Prints the end of each failed test's output from a ctest log (Testing/Temporary/LastTest.log).

    failed-tails.py LOG [LINES]

ctest --output-on-failure prints a failed test's output when the test ends, in the middle of
a long run; a log read from its end (CI keeps the tail) then misses why. run-tests.sh calls
this after a failed run so that the last lines of every failed test's output come last, with
the earlier lines that name a failure (FAIL, error, Failure).
"""
import re
import sys


def main():
    log = sys.argv[1]
    keep = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    try:
        text = open(log, errors="replace").read()
    except OSError as e:
        print("failed-tails: cannot read %s: %s" % (log, e))
        return 0
    # One section per test: '"NAME" start time: ...', 'Output:', a rule, the output,
    # '<end of output>', the time, a rule, then 'Test Passed.' / 'Test Failed.' (or a timeout / other reason).
    pattern = re.compile(r'^"(?P<name>[^"\n]+)" start time:.*?\nOutput:\n-+\n(?P<out>.*?)<end of output>\n'
                         r'Test time = [^\n]*\n(?:-+\n)?(?P<verdict>[^\n]*)', re.S | re.M)
    failed = [m for m in pattern.finditer(text) if not m.group("verdict").startswith("Test Passed")]
    for m in failed:
        lines = [l if len(l) <= 400 else l[:400] + " [...]" for l in m.group("out").rstrip("\n").split("\n")]
        print("==== %s (%s): last %d of %d output lines" % (m.group("name"), m.group("verdict").strip(),
                                                         min(keep, len(lines)), len(lines)))
        print("\n".join(lines[-keep:]))
        # The lines naming a failure anywhere in it (a verdict may sit above a long echoed log).
        marked = [l for l in lines[:-keep] if re.search(r"FAIL|[Ee]rror[: ]|Failure|Abort|Segmentation", l)]
        if marked:
            print("---- %d earlier line(s) naming a failure (first 15):" % len(marked))
            print("\n".join(marked[:15]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
