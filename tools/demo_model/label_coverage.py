#!/usr/bin/python3
"""Which labelled rows ask for answers the corpus's rules never give.

    label_coverage.py [--draws N] [--seed N] FILE.jsonl ...

The demo model learns the rules of texts/ (one generator per policy), and bench-demo_quality scores
it against labelled rows (tests/data/demo/*.jsonl). Where a row's answers form a combination that
its policy's generator never draws, no input of the corpus teaches that combination: either the row
reads the policy differently from the generator (contract_audit's risk there is judged from the
whole clause, the generator adds points over the other three answers), or it asks for a case the
generator does not write (a platform whose own rules change the moderation). This program draws
--draws inputs per policy from the generator, as corpus.py does, and lists those rows, with the
per-question answers the generator never gives on its own. It reads the labels only, never the
texts, so it can be run without looking at the inputs.
"""

import argparse
import collections
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from texts import GENERATORS  # noqa: E402


def fail(message):
    print(f"label_coverage.py: {message}", file=sys.stderr)
    sys.exit(2)


def drawn_answers(policy, draws, seed):
    rng = np.random.default_rng(seed)
    combinations = collections.Counter()
    for _ in range(draws):
        _, answers = GENERATORS[policy](rng)
        combinations[tuple(sorted(answers.items()))] += 1
    return combinations


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", help="labelled rows: {id, expected: {question: answer}}, one per line")
    ap.add_argument("--draws", type=int, default=6000, help="inputs drawn per policy")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.draws < 1:
        fail(f"--draws {args.draws}: accepted: 1 or more")
    total_rows = total_uncovered = 0
    for path in args.files:
        policy = os.path.splitext(os.path.basename(path))[0]
        if policy not in GENERATORS:
            fail(f"{path}: no generator for '{policy}' (accepted: {', '.join(GENERATORS)})")
        try:
            with open(path) as f:
                rows = [json.loads(line) for line in f if line.strip()]
        except (OSError, ValueError) as e:
            fail(f"{path}: {e}")
        combinations = drawn_answers(policy, args.draws, args.seed)
        single = collections.defaultdict(set)
        for combination in combinations:
            for question, answer in combination:
                single[question].add(answer)
        uncovered = []
        for row in rows:
            expected = row.get("expected")
            if not isinstance(expected, dict):
                fail(f"{path}: row {row.get('id', '?')} has no expected answers")
            if tuple(sorted(expected.items())) not in combinations:
                uncovered.append(row)
        print(f"{policy}: {len(rows)} rows, {len(uncovered)} with a combination of answers the generator never "
              f"drew ({len(combinations)} combinations in {args.draws} draws)")
        for row in uncovered:
            expected = row["expected"]
            alone = [q for q, a in expected.items() if a not in single[q]]
            note = f"; never drawn at all: {', '.join(alone)}" if alone else ""
            print(f"  {row.get('id', '?')}: {json.dumps(expected, sort_keys=True)}{note}")
        total_rows += len(rows)
        total_uncovered += len(uncovered)
    print(f"all: {total_uncovered} of {total_rows} rows outside the generators' combinations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
