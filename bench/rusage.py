"""Runs a command and writes what it cost as JSON to a file: wall time (fork to exit), CPU time
(user + system, from wait4's resource usage: precise, unlike GNU time's two decimals), peak
RSS, and when the fork happened (ms since the epoch, to line up events timed by the caller). stdin, stdout and stderr pass through. Used by bench/rusage.mjs.

Usage: python3 rusage.py OUT_FILE COMMAND [ARG...]   (exits with the command's status)
"""
import json
import os
import sys
import time

out, argv = sys.argv[1], sys.argv[2:]
forked_at = time.time()
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(out, "w") as f:
    json.dump({"wallMs": wall * 1000, "cpuMs": (usage.ru_utime + usage.ru_stime) * 1000, "rssKiB": usage.ru_maxrss, "forkedAtMs": forked_at * 1000}, f)
sys.exit(os.waitstatus_to_exitcode(status))
