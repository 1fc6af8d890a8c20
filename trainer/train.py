#!/usr/bin/python3
"""Trains the learned evaluation from damas training-data files and exports the engine's weights.

    /usr/bin/python3 trainer/train.py DATA.bin... --out src/eval/learned.dnn

Target per position: lambda * sigmoid(score / K) + (1 - lambda) * result (side to move's view),
loss: mean squared error against sigmoid(100 * net / K). Validation: the last games (by game, never
splitting one). Everything is seeded, one thread: the same data and arguments give the same file.
"""
import argparse
import time

import numpy as np
import torch

import data
import model


def fen_of(record):
    """PDN FEN in standard numbering (bit i = square i + 1), kings marked K."""
    def squares(mask):
        kings = int(record["kings"])
        return ",".join(("K" if kings >> i & 1 else "") + str(i + 1) for i in range(32) if int(mask) >> i & 1)
    side = "B" if record["flags"] & 1 else "W"
    return f"{side}:W{squares(record['white'])}:B{squares(record['black'])}"


def train_epoch(net, opt, rng, n, batch, loss_of_batch):
    """One pass over n positions in a random order (rng), a step per batch of indices; the mean
    batch loss. The network's weights are clipped after each step."""
    perm = torch.from_numpy(rng.permutation(n))
    total, batches = 0.0, 0
    for i in range(0, len(perm), batch):
        opt.zero_grad()
        loss = loss_of_batch(perm[i:i + batch])
        loss.backward()
        opt.step()
        net.clip_()
        total += float(loss)
        batches += 1
    return total / max(1, batches)


def write_check_file(path, script, weights, records, rows, int_cp, float_cp):
    """The check positions tests/ compare the engine with: FEN | integer score | float score."""
    with open(path, "w") as f:
        f.write(f"# Written by trainer/{script} for {weights}: FEN | integer score | float score\n"
                "# (side to move, 1/100 man). The engine must give the integer score exactly.\n")
        for i in rows:
            f.write(f"{fen_of(records[i])} | {int(int_cp[i])} | {float_cp[i]:.3f}\n")
    print(f"wrote {len(rows)} check positions to {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", help="training-data files written by damas datagen")
    ap.add_argument("--out", required=True, help="weights file to write")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--minutes", type=float, default=0, help="stop after this long (0 = no limit)")
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--lam", type=float, default=0.5, help="weight of the search score in the target")
    ap.add_argument("--scale", type=float, default=200.0, help="K of sigmoid(score / K), 1/100 man")
    ap.add_argument("--val-fraction", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden1", type=int, default=model.HIDDEN1, choices=(64, 128),
                    help="first-layer units (the engine runs 128; a 64-unit file is padded)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (a given count is deterministic)")
    ap.add_argument("--test-positions", help="also write this many-line check file for tests/")
    ap.add_argument("--test-count", type=int, default=200)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    variant, records = data.concat_with_variant(args.data)
    games = data.game_ids(records)
    n_games = int(games[-1]) + 1
    val_games = max(1, int(n_games * args.val_fraction))
    is_val = games >= n_games - val_games
    x_all = data.features(records)
    score = records["score"].astype(np.float32)
    result = data.result_for_side_to_move(records)
    target = args.lam / (1 + np.exp(-score / args.scale)) + (1 - args.lam) * result
    # Reference: the validation loss of the search score itself (what the data's labeller knew).
    searched = 1 / (1 + np.exp(-score[is_val] / args.scale))
    print(f"data: {len(records)} {variant} positions, {n_games} games ({val_games} for validation), "
          f"read in {time.time() - t0:.1f} s; validation loss of the search score itself "
          f"{np.mean((searched - target[is_val]) ** 2):.5f}", flush=True)

    x_train, y_train = torch.from_numpy(x_all[~is_val]), torch.from_numpy(target[~is_val].astype(np.float32))
    x_val, y_val = torch.from_numpy(x_all[is_val]), torch.from_numpy(target[is_val].astype(np.float32))
    net = model.Net(args.hidden1)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, args.epochs))

    def loss_of(x, y):
        return torch.mean((torch.sigmoid(100.0 * net(x) / args.scale) - y) ** 2)

    t_train = time.time()
    for epoch in range(args.epochs):
        net.train()
        mean_loss = train_epoch(net, opt, rng, len(x_train), args.batch,
                                lambda idx: loss_of(x_train[idx], y_train[idx]))
        sched.step()
        with torch.no_grad():
            val = float(loss_of(x_val, y_val))
        print(f"epoch {epoch + 1}: train loss {mean_loss:.5f}  validation loss {val:.5f}  "
              f"{time.time() - t_train:.0f} s", flush=True)
        if args.minutes and time.time() - t_train > 60 * args.minutes:
            print("time box reached", flush=True)
            break

    q = model.save(net, args.out, variant)
    with torch.no_grad():
        float_cp = 100.0 * net(x_val).numpy().astype(np.float64)
    int_cp = model.integer_eval(q, x_val.numpy())
    err = np.abs(int_cp - float_cp)
    print(f"wrote {args.out} (a {variant} network); training {time.time() - t_train:.0f} s; quantization error on validation: "
          f"mean {err.mean():.2f}, max {err.max():.2f} (1/100 man)", flush=True)

    if args.test_positions:
        val_records = records[is_val]
        pick = rng.choice(len(val_records), size=min(args.test_count, len(val_records)), replace=False)
        write_check_file(args.test_positions, "train.py", args.out, val_records, sorted(pick), int_cp, float_cp)


if __name__ == "__main__":
    main()
