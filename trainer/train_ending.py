#!/usr/bin/python3
"""Trains the lone-king ending network (include/damas/eval/endgame.h) from `damas egdb ending-data`.

    /usr/bin/python3 trainer/train_ending.py ENDING.bin --out src/eval/ending.dnn

The positions are every position of their slices (a closed set the network is only ever asked
about), so there is no held-out part: the fit itself is the measure. The targets are database
distances (a win in d plies scores 1000 - 15 d, so one ply is 15/100 man); the loss is the mean
squared error of the score in men, linear, because a sigmoid flattens exactly the differences
between long wins that the search has to tell apart. Reported per material group: the mean error
in plies over the wins, and the mean |score| over the draws.

    /usr/bin/python3 trainer/train_ending.py ENDING.bin --measure src/eval/ending.dnn

measures an existing weights file (the engine's integer inference) on the same data.
"""
import argparse
import time

import numpy as np
import torch

import data
import ending_model as model
from train import train_epoch, write_check_file

PLY = 15.0  # 1/100 man per ply of a database win (tool_egdb_convert.cpp: kEndingPerPly)


def group_names(records):
    """'KKK v K' style name per record: the strong side's kings and men, then the lone king."""
    def count(mask):
        m = mask.astype(np.uint64)
        return np.array([bin(int(v)).count("1") for v in m])
    kings = records["kings"]
    strong_white = count(records["white"]) >= count(records["black"])
    strong = np.where(strong_white, records["white"], records["black"])
    k = count(strong & kings)
    m = count(strong & ~kings)
    return np.array([("K" * int(a) + "M" * int(b)) + " v K" for a, b in zip(k, m)])


def report(name, pred_cp, score, groups):
    print(f"{name}:")
    for g in sorted(set(groups)):
        sel = groups == g
        win = sel & (np.abs(score) >= 200)
        draw = sel & (score == 0)
        mae = np.mean(np.abs(pred_cp[win] - score[win])) / PLY if win.any() else float("nan")
        wrong = np.mean(np.sign(pred_cp[win]) != np.sign(score[win])) if win.any() else 0.0
        draws = np.mean(np.abs(pred_cp[draw])) if draw.any() else float("nan")
        print(f"  {g:10s} {int(sel.sum()):8d} positions  wins: error {mae:5.2f} plies, "
              f"wrong sign {100 * wrong:5.2f}%  draws: mean |score| {draws:6.1f}", flush=True)


def evaluate(qs, idx, sign, bucket):
    """The side to move's integer scores of the engine (one network per bucket)."""
    out = np.zeros(len(idx))
    for b, q in enumerate(qs):
        sel = bucket == b
        if sel.any():
            out[sel] = sign[sel] * model.integer_eval(q, idx[sel]).astype(np.float64)
    return out


def train_bucket(x, y, args, b):
    """A fresh network fitted to one bucket's positions (seeded by --seed and the bucket)."""
    torch.manual_seed(args.seed + b)
    rng = np.random.default_rng(args.seed + b)
    net = model.Net()
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, args.epochs))
    t0 = time.time()
    for epoch in range(args.epochs):
        mean_loss = train_epoch(net, opt, rng, len(x), args.batch,
                                lambda idx: torch.mean((net(x[idx]) - y[idx]) ** 2))
        sched.step()
        print(f"bucket {b} epoch {epoch + 1}: loss {mean_loss:.5f} (men^2)  "
              f"{time.time() - t0:.0f} s", flush=True)
        if args.minutes and time.time() - t0 > 60 * args.minutes:
            print("time box reached", flush=True)
            break
    return net


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="*", help="files written by damas egdb ending-data")
    ap.add_argument("--out", help="weights file to write")
    ap.add_argument("--measure", help="only measure this weights file on the data")
    ap.add_argument("--buckets", default="0,1,2,3",
                    help="train these buckets; the others are zero, or taken from --keep")
    ap.add_argument("--keep", help="weights file whose other buckets are kept")
    ap.add_argument("--take", action="append", default=[],
                    help="FILE:B,B...: take these buckets from FILE (merges runs that trained buckets apart)")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--minutes", type=float, default=0, help="stop a bucket after this long (0 = no limit)")
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--group", action="append", help="only this material group (e.g. 'KKK v K'); repeatable")
    ap.add_argument("--test-positions", help="also write a check file for tests/ (FEN | integer | float)")
    ap.add_argument("--test-count", type=int, default=100)
    args = ap.parse_args()
    if bool(args.out) == bool(args.measure):
        ap.error("give --out (train) or --measure (measure a weights file)")

    variant, records = data.concat_with_variant(args.data)
    if variant != "brazilian":  # the engine's ending network is Brazilian (src/eval/endgame.cpp)
        ap.error(f"the data are {variant} positions; the ending network is trained on Brazilian ones")
    if args.group:
        records = records[np.isin(group_names(records), args.group)]
    x_all, sign = model.features(records)
    bucket = model.buckets(records)
    score = records["score"].astype(np.float64)
    groups = group_names(records)
    print(f"data: {len(records)} positions", flush=True)

    if args.measure:
        report(args.measure, evaluate(model.load(args.measure), x_all, sign, bucket), score, groups)
        return

    trained_qs = {}
    float_cp = np.zeros(len(records))
    to_train = [int(v) for v in args.buckets.split(",") if v]
    for b in to_train:
        sel = bucket == b
        if not sel.any():
            print(f"bucket {b}: no positions", flush=True)
            continue
        x = torch.from_numpy(x_all[sel])
        net = train_bucket(x, torch.from_numpy((sign[sel] * score[sel] / 100.0).astype(np.float32)), args, b)
        trained_qs[b] = model.quantize(net)
        with torch.no_grad():
            float_cp[sel] = sign[sel] * 100.0 * net(x).numpy().astype(np.float64)
    # --keep is read only now, so a run training the other buckets at the same time can finish first.
    qs = model.load(args.keep) if args.keep else [model.quantize(model.Net().zero_()) for _ in range(model.BUCKETS)]
    for spec in args.take:
        path, _, which = spec.rpartition(":")
        taken = model.load(path)
        for b in [int(v) for v in which.split(",") if v]:
            qs[b] = taken[b]
    for b, q in trained_qs.items():
        qs[b] = q
    model.save(qs, args.out)
    int_cp = evaluate(qs, x_all, sign, bucket)
    trained = np.isin(bucket, to_train)
    err = np.abs(int_cp - float_cp)[trained]
    if trained.any():
        print(f"wrote {args.out}; quantization error mean {err.mean():.2f}, max {err.max():.2f} (1/100 man)")
    report(args.out, int_cp, score, groups)
    if args.test_positions and trained.any():
        rng = np.random.default_rng(args.seed)
        rows = np.nonzero(trained)[0]
        pick = rng.choice(rows, size=min(args.test_count, len(rows)), replace=False)
        write_check_file(args.test_positions, "train_ending.py", args.out, records, sorted(pick), int_cp, float_cp)


if __name__ == "__main__":
    main()
