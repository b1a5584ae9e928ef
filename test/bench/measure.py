# Runs commands for test/bench/bench.mjs and measures each as the kernel counts it: one JSON request a line on
# stdin ({"argv": [...], "env": {...}, "stdout": path, "stderr": path}), one JSON answer a line on stdout
# ({"wall": ms, "cpu": ms, "user": ms, "system": ms, "rss": MiB, "code": exit code}). Wall time runs from just
# before the fork to the child's exit, so nothing of this process's own start is in it; CPU time and peak RSS
# are the child's own rusage (wait4), exact to the microsecond, where GNU time prints CPU in 10 ms steps.
import json
import os
import sys
import time

for line in sys.stdin:
    request = json.loads(line)
    stdout = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    stderr = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    started = time.perf_counter_ns()
    pid = os.fork()
    if pid == 0:
        try:
            devnull = os.open(os.devnull, os.O_RDONLY)
            os.dup2(devnull, 0)
            os.dup2(stdout, 1)
            os.dup2(stderr, 2)
            os.execvpe(request["argv"][0], request["argv"], request["env"])
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    ended = time.perf_counter_ns()
    os.close(stdout)
    os.close(stderr)
    user, system = usage.ru_utime * 1000, usage.ru_stime * 1000
    answer = {
        "wall": (ended - started) / 1e6,
        "cpu": user + system,
        "user": user,
        "system": system,
        "rss": usage.ru_maxrss / 1024,
        "code": os.waitstatus_to_exitcode(status),
    }
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
