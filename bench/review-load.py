#!/usr/bin/env python3
"""The `state` answer time of `damas serve` while every search slot runs a deep review step.

Starts its own `damas serve --port 0` on 127.0.0.1, gives N sessions a game of 30 plies each,
starts a depth-30 review of each, stepped by one thread per session as the page does (one
review-step after the other: they hold every engine and fill the queue), then times `state` requests of another session. Bounded: each
request has a timeout, the reviews are cancelled and the server is stopped (SIGTERM, then SIGKILL
after 10 s) at the end. bench/web-load.md has the figures.

    bench/review-load.py build/release/damas [--sessions 8] [--searches 2] [--samples 20]
"""
import argparse
import http.client
import json
import statistics
import subprocess
import threading
import time


def post(port, op, body, timeout):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("POST", "/api/" + op, json.dumps(body), {"Content-Type": "application/json"})
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"{}")
    finally:
        conn.close()


def long_game(port, plies):
    status, state = post(port, "new", {}, 10)
    session = state["session"]
    for ply in range(plies):
        if state["result"]["over"]:
            break
        legal = state["legal"]
        status, state = post(port, "move", {"session": session, "move": legal[(ply * 7) % len(legal)]["text"]}, 10)
        assert status == 200, state
    return session


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("damas")
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--searches", type=int, default=2)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=60, help="seconds a state request may take")
    args = parser.parse_args()
    server = subprocess.Popen([args.damas, "serve", "--port", "0", "--searches", str(args.searches)],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        reviewed = [long_game(port, 30) for _ in range(args.sessions)]
        other = long_game(port, 0)
        for session in reviewed:
            assert post(port, "review-start", {"session": session, "depth": 30}, 10)[0] == 200
        steps = []
        sampling = threading.Event()
        sampling.set()

        def review(session):  # as the page does: one review-step after the other
            while sampling.is_set():
                try:
                    status, progress = post(port, "review-step", {"session": session}, 900)
                except (TimeoutError, OSError):
                    return
                steps.append(status)
                if status != 200 or progress.get("finished"):
                    return

        for session in reviewed:
            threading.Thread(target=review, args=(session,), daemon=True).start()
        time.sleep(2)  # every review step has reached the server: the engines search, the rest wait
        times, unanswered = [], 0
        budget = time.monotonic() + 2 * args.timeout  # the whole sampling, however slow the answers
        for _ in range(args.samples):
            if time.monotonic() > budget:
                break
            start = time.monotonic()
            try:
                status, _ = post(port, "state", {"session": other}, args.timeout)
                assert status == 200
                times.append(time.monotonic() - start)
            except (TimeoutError, OSError):
                unanswered += 1
            time.sleep(0.25)
        samples = len(times) + unanswered
        steps_done = len(steps)
        sampling.clear()
        for session in reviewed:
            try:
                post(port, "review-cancel", {"session": session}, 10)
            except (TimeoutError, OSError):
                pass
        print(f"sessions reviewing {args.sessions}, search slots {args.searches}, depth 30")
        print(f"review steps finished during the samples: {steps_done}")
        if times:
            ms = sorted(t * 1000 for t in times)
            print(f"state answers {len(ms)} of {samples}: min {ms[0]:.1f} ms, median "
                  f"{statistics.median(ms):.1f} ms, p90 {ms[int(0.9 * (len(ms) - 1))]:.1f} ms, max {ms[-1]:.1f} ms")
            print(f"state answers over 1 s: {sum(1 for t in ms if t > 1000)}")
        print(f"state not answered within {args.timeout:.0f} s: {unanswered}")
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
