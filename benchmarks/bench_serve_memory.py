"""The resident memory of a real `rulekit serve` process before and after N mixed resumes.

    python benchmarks/bench_serve_memory.py [--requests 2000] [--idle 30]

Starts `rulekit serve` on a free port of 127.0.0.1 and sends POST /api/resume with five kinds
of saved game in turn: house rules of its own, none, house rules with a mistake, not TOML, a
long text; every other one from a new browser. Prints the server's RSS (Linux: /proc) after a
warm-up, after the requests and after idling. tests/test_web_memory.py holds the stores'
bounds structurally; this measures what they come to.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

SAVED = """title = "A game of Koi-Koi (Sloper), saved by rulekit play"
rules = "koikoi"
{house}seats = ["You", "Alice"]
dealer = "Alice"
seed = {seed}

[play]
human = "You"
think_ms = 150

[play.bots]
Alice = "greedy"

[[rounds]]
moves = []
"""
TOML = {"content-type": "application/toml"}


def saved_game(i: int) -> bytes:
    kind = i % 5
    if kind == 0:
        return SAVED.format(house=f'house_rules = "\\n# table {i}\\n"\n', seed=i).encode()
    if kind == 1:
        return SAVED.format(house="", seed=i).encode()
    if kind == 2:
        return SAVED.format(house=f'house_rules = "\\nyaku nonsense {i}\\n"\n', seed=i).encode()
    if kind == 3:
        return f"rules = 'koikoi'\n[[ {i}".encode()
    return (SAVED.format(house="", seed=i) + "# a comment\n" * 2000).encode()


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--idle", type=float, default=30.0, help="seconds idle before the last")
    args = parser.parse_args()
    port = free_port()
    rulekit = Path(sys.executable).parent / "rulekit"
    server = subprocess.Popen([str(rulekit), "serve", "--port", str(port)], stdout=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(url + "/api/options")
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        for i in range(20):
            httpx.post(url + "/api/resume", content=saved_game(i), headers=TOML)
        before = rss_mib(server.pid)
        statuses: dict[int, int] = {}
        with httpx.Client() as one_browser:
            for i in range(args.requests):
                send = one_browser.post if i % 2 else httpx.post
                status = send(url + "/api/resume", content=saved_game(i), headers=TOML).status_code
                statuses[status] = statuses.get(status, 0) + 1
        after = rss_mib(server.pid)
        time.sleep(args.idle)
        idle = rss_mib(server.pid)
    finally:
        server.terminate()
        server.wait()
    print(
        f"{args.requests} resumes {dict(sorted(statuses.items()))}: RSS {before:.0f} MiB after"
        f" the warm-up, {after:.0f} MiB after, {idle:.0f} MiB after {args.idle:.0f} s idle"
    )


if __name__ == "__main__":
    main()
