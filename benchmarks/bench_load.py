"""How long parsing, resolving, checking and compiling a bundled rule file takes.

    python benchmarks/bench_load.py

The parser is built once per process (and cached on disk by Lark); each figure is the best of
several runs of one file.
"""

from __future__ import annotations

import time

from rulekit.engine.tables import CompiledRules
from rulekit.lang import bundled_names, find_rules
from rulekit.lang.checks import static_checks
from rulekit.lang.loader import load_draft
from rulekit.lang.resolve import Resolver


def best_ms(fn: object, runs: int = 20) -> float:
    assert callable(fn)
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    print(f"{'file':28} {'parse+resolve':>14} {'compile':>9} {'checks':>8}")
    for name in bundled_names():
        if name.startswith("common/"):
            continue
        path = find_rules(name)
        parse = best_ms(lambda path=path: Resolver(load_draft(path)).run())
        rules = Resolver(load_draft(path)).run()
        assert rules is not None
        compile_ms = best_ms(lambda rules=rules: CompiledRules(rules))
        checks = best_ms(lambda rules=rules: static_checks(rules), runs=3)
        print(f"{name:28} {parse:11.1f} ms {compile_ms:6.1f} ms {checks:5.1f} ms")


if __name__ == "__main__":
    main()
