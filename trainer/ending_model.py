"""The lone-king ending network: its inputs, its quantization, its integer inference and its weights
file (format and arithmetic: include/damas/eval/endgame.h)."""
import numpy as np
import torch

from data import FNV_OFFSET, fnv1a64

INPUTS, HIDDEN1, HIDDEN2 = 4160, 128, 16
LONE_KING_INPUTS = 4096
PAD = INPUTS  # index of no input (a zero row in training only)
BUCKETS = 4
MAGIC = b"DAMASEN\0"
VERSION = 1
W1_LIMIT = 32767 / (25 * 127)  # every piece's row + bias in int16
W2_LIMIT = 32767 / 64


def _bits(mask):
    m = mask.astype(np.uint64)
    return ((m[:, None] >> np.arange(32, dtype=np.uint64)[None, :]) & 1).astype(bool)


def features(records):
    """Input indices per record [n, 13] (PAD where none) and the sign that turns the strong side's
    score into the side to move's (+1 strong to move, -1 the lone king to move)."""
    white, black, kings = _bits(records["white"]), _bits(records["black"]), _bits(records["kings"])
    strong_white = white.sum(1) >= black.sum(1)
    strong = np.where(strong_white[:, None], white, black)
    lone = np.where(strong_white[:, None], black, white)
    # The strong side's view: squares rotated 180 degrees (index i -> 31 - i) when it is Black.
    rotate = ~strong_white[:, None]
    strong = np.where(rotate, strong[:, ::-1], strong)
    lone = np.where(rotate, lone[:, ::-1], lone)
    kings = np.where(rotate, kings[:, ::-1], kings)
    black_to_move = (records["flags"] & 1).astype(bool)
    to_move = np.where(black_to_move == strong_white, 1, 0)  # 1: the lone king's side to move
    lone_sq = lone.argmax(1)
    n = len(records)
    idx = np.full((n, 13), PAD, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)
    for kind, plane in ((0, strong & ~kings), (1, strong & kings)):
        for s in range(32):
            has = plane[:, s]
            idx[rows[has], counts[has]] = ((to_move[has] * 2 + kind) * 32 + lone_sq[has]) * 32 + s
            counts[has] += 1
    idx[rows, counts] = LONE_KING_INPUTS + to_move * 32 + lone_sq
    return idx, np.where(to_move == 0, 1.0, -1.0)


def buckets(records):
    """The network of each record: 0 two pieces, 1 three kings, 2 three pieces with a man, 3 four or
    more (src/eval/endgame.cpp: ending_bucket)."""
    white, black, kings = _bits(records["white"]), _bits(records["black"]), _bits(records["kings"])
    strong = np.where((white.sum(1) >= black.sum(1))[:, None], white, black)
    pieces, men = strong.sum(1), (strong & ~kings).sum(1)
    return np.where(pieces <= 2, 0, np.where(pieces >= 4, 3, np.where(men > 0, 2, 1)))


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.EmbeddingBag(INPUTS + 1, HIDDEN1, mode="sum", padding_idx=PAD)
        self.b1 = torch.nn.Parameter(torch.zeros(HIDDEN1))
        self.l2 = torch.nn.Linear(HIDDEN1, HIDDEN2)
        self.l3 = torch.nn.Linear(HIDDEN2, 1)

    def forward(self, idx):
        """The strong side's score in men."""
        a1 = torch.clamp(self.l1(idx) + self.b1, 0.0, 1.0)
        a2 = torch.clamp(self.l2(a1), 0.0, 1.0)
        return self.l3(a2).squeeze(-1)

    def zero_(self):
        with torch.no_grad():
            for param in self.parameters():
                param.zero_()
        return self

    def clip_(self):
        with torch.no_grad():
            self.l1.weight.clamp_(-W1_LIMIT, W1_LIMIT)
            self.b1.clamp_(-W1_LIMIT, W1_LIMIT)
            self.l2.weight.clamp_(-W2_LIMIT, W2_LIMIT)


def quantize(net):
    w1 = net.l1.weight.detach().numpy().astype(np.float64)[:INPUTS]  # [INPUTS, HIDDEN1]
    return {
        "w1": np.round(w1 * 127).astype(np.int16),
        "b1": np.round(net.b1.detach().numpy().astype(np.float64) * 127).astype(np.int16),
        "w2": np.round(net.l2.weight.detach().numpy().astype(np.float64) * 64).astype(np.int16),
        "b2": np.round(net.l2.bias.detach().numpy().astype(np.float64) * 127 * 64).astype(np.int32),
        "w3": np.round(net.l3.weight.detach().numpy().astype(np.float64)[0] * 256 * 100 / 127).astype(np.int32),
        "b3": np.int32(round(float(net.l3.bias.detach().numpy()[0]) * 256 * 100)),
    }


def integer_eval(q, idx, chunk=50000):
    """The engine's integer inference (src/eval/endgame.cpp): the strong side's score, 1/100 man."""
    w1 = np.concatenate([q["w1"].astype(np.int64), np.zeros((1, HIDDEN1), dtype=np.int64)])
    out = np.empty(len(idx), dtype=np.int64)
    for i in range(0, len(idx), chunk):
        acc = w1[idx[i:i + chunk]].sum(axis=1) + q["b1"].astype(np.int64)
        assert np.all(np.abs(acc) < 32768), "accumulator overflows int16"
        a1 = np.clip(acc, 0, 127)
        z = a1 @ q["w2"].T.astype(np.int64) + q["b2"].astype(np.int64)
        a2 = np.clip(z >> 6, 0, 127)
        out[i:i + chunk] = (a2 @ q["w3"].astype(np.int64) + np.int64(q["b3"])) >> 8
    return out


def _network_bytes(q):
    return b"".join([q["w1"].astype("<i2").tobytes(), q["b1"].astype("<i2").tobytes(),
                     q["w2"].astype("<i2").tobytes(), q["b2"].astype("<i4").tobytes(),
                     q["w3"].astype("<i4").tobytes(), np.int32(q["b3"]).astype("<i4").tobytes()])


def to_bytes(qs):
    """The weights file of BUCKETS quantized networks."""
    assert len(qs) == BUCKETS
    payload = b"".join(_network_bytes(q) for q in qs)
    header = (MAGIC + VERSION.to_bytes(4, "little") + INPUTS.to_bytes(4, "little") +
              HIDDEN1.to_bytes(4, "little") + HIDDEN2.to_bytes(4, "little") + BUCKETS.to_bytes(4, "little") +
              bytes(4) + fnv1a64(payload, FNV_OFFSET).to_bytes(8, "little"))
    return header + payload


def save(qs, path):
    with open(path, "wb") as f:
        f.write(to_bytes(qs))


def load(path):
    """The BUCKETS quantized networks of a file (refused unless magic, version, shape, size and
    checksum match)."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:8] != MAGIC or int.from_bytes(raw[8:12], "little") != VERSION:
        raise ValueError(f"{path}: not a version {VERSION} damas ending-weights file")
    shape = [int.from_bytes(raw[o:o + 4], "little") for o in (12, 16, 20, 24, 28)]
    if shape != [INPUTS, HIDDEN1, HIDDEN2, BUCKETS, 0]:
        raise ValueError(f"{path}: network shape {shape}, expected {[INPUTS, HIDDEN1, HIDDEN2, BUCKETS, 0]}")
    payload = raw[40:]
    if fnv1a64(payload, FNV_OFFSET) != int.from_bytes(raw[32:40], "little"):
        raise ValueError(f"{path}: checksum mismatch")
    fields = (("w1", "<i2", INPUTS * HIDDEN1), ("b1", "<i2", HIDDEN1), ("w2", "<i2", HIDDEN2 * HIDDEN1),
              ("b2", "<i4", HIDDEN2), ("w3", "<i4", HIDDEN2), ("b3", "<i4", 1))
    qs, offset = [], 0
    for _ in range(BUCKETS):
        parts = {}
        for name, dtype, count in fields:
            size = np.dtype(dtype).itemsize * count
            parts[name] = np.frombuffer(payload[offset:offset + size], dtype=dtype)
            offset += size
        qs.append({"w1": parts["w1"].reshape(INPUTS, HIDDEN1), "b1": parts["b1"],
                   "w2": parts["w2"].reshape(HIDDEN2, HIDDEN1), "b2": parts["b2"],
                   "w3": parts["w3"], "b3": np.int32(parts["b3"][0])})
    if offset != len(payload):
        raise ValueError(f"{path}: payload of {len(payload)} bytes, expected {offset}")
    return qs
