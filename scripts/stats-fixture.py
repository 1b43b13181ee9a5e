#!/usr/bin/env python3
"""Writes src-shared/experiments/testdata/stats-cases.json: the known values the
experiment statistics (src-shared/experiments/stats.ts) are checked against, computed
with scipy. The tests read the JSON only; run this again (with scipy installed) when a
case is added:

    python3 -m venv /tmp/scipy-venv && /tmp/scipy-venv/bin/pip install scipy
    /tmp/scipy-venv/bin/python scripts/stats-fixture.py
"""
import json
import os

import numpy as np
import scipy
from scipy import special, stats

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "src-shared", "experiments", "testdata", "stats-cases.json")


def wilson(k, n):
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return {"k": k, "n": n, "low": ci.low, "high": ci.high}


def sign_test(plus, minus):
    n = plus + minus
    p = 1.0 if n == 0 else stats.binomtest(plus, n, 0.5, alternative="two-sided").pvalue
    return {"plus": plus, "minus": minus, "p": float(p)}


def pass_at_k(n, c, k):
    # the unbiased estimator written with scipy's binomials, independent of stats.ts
    value = 1.0 - special.comb(n - c, k, exact=True) / special.comb(n, k, exact=True)
    return {"n": n, "c": c, "k": k, "value": float(value)}


def pass_hat_k(n, c, k):
    value = special.comb(c, k, exact=True) / special.comb(n, k, exact=True)
    return {"n": n, "c": c, "k": k, "value": float(value)}


def bootstrap(values):
    result = stats.bootstrap(
        (np.array(values, dtype=float),),
        np.mean,
        confidence_level=0.95,
        n_resamples=20000,
        method="percentile",
        random_state=np.random.default_rng(12345),
    )
    ci = result.confidence_interval
    return {"values": values, "low": float(ci.low), "high": float(ci.high)}


rng = np.random.default_rng(7)
cases = {
    "generator": "scripts/stats-fixture.py",
    "scipy": scipy.__version__,
    "wilson": [
        wilson(k, n)
        for k, n in [(0, 1), (1, 1), (0, 5), (3, 5), (5, 5), (7, 10), (12, 18), (0, 30),
                     (29, 30), (50, 100), (1, 1000), (731, 1000)]
    ],
    "signTest": [
        sign_test(a, b)
        for a, b in [(0, 0), (1, 0), (0, 1), (3, 0), (5, 0), (6, 0), (5, 1), (4, 4), (7, 2),
                     (10, 2), (2, 10), (15, 5), (40, 60), (600, 500), (1200, 1000)]
    ],
    "passAtK": [
        pass_at_k(n, c, k)
        for n, c, k in [(3, 0, 1), (3, 1, 1), (3, 1, 2), (3, 1, 3), (3, 2, 2), (5, 2, 3),
                        (10, 3, 5), (10, 0, 10), (20, 19, 10), (100, 7, 10)]
    ],
    "passHatK": [
        pass_hat_k(n, c, k)
        for n, c, k in [(3, 0, 1), (3, 3, 3), (3, 2, 2), (3, 2, 3), (5, 4, 2), (10, 7, 5),
                        (20, 19, 10), (100, 93, 10)]
    ],
    "bootstrap": [
        bootstrap(values)
        for values in [
            [0.5, 0.75, 1.0, 0.25, 1.0, 0.5],
            [0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 0.9, 0.1, 0.3, 0.7],
            [round(float(x), 3) for x in rng.beta(2, 5, 40)],
            [round(float(x), 3) for x in rng.uniform(0, 1, 200)],
        ]
    ],
}

with open(OUT, "w") as f:
    json.dump(cases, f, indent=1)
    f.write("\n")
print(f"wrote {OUT}")
