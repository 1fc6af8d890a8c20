"""The network of the learned evaluation, its quantization and the weights file
(format and integer arithmetic: include/damas/eval/learned.h)."""
import numpy as np
import torch

from data import FNV_OFFSET, fnv1a64

INPUTS, HIDDEN1, HIDDEN2 = 128, 128, 16  # the engine also reads 64 first-layer units (padded)
MAGIC = b"DAMASNN\0"
VERSION = 2  # names the game the network is for
GAME_TYPE = {"brazilian": 26, "russian": 25}  # PDN GameType (include/damas/core/types.h)
# Float weight bounds that keep every quantized value in its integer type.
W1_LIMIT = 32767 / (25 * 127)  # 24 pieces + bias in int16
W2_LIMIT = 32767 / 64


class Net(torch.nn.Module):
    def __init__(self, hidden1=HIDDEN1):
        super().__init__()
        self.l1 = torch.nn.Linear(INPUTS, hidden1)
        self.l2 = torch.nn.Linear(hidden1, HIDDEN2)
        self.l3 = torch.nn.Linear(HIDDEN2, 1)

    def forward(self, x):
        """Score for the side to move in men (the engine prints 100 times this)."""
        a1 = torch.clamp(self.l1(x), 0.0, 1.0)
        a2 = torch.clamp(self.l2(a1), 0.0, 1.0)
        return self.l3(a2).squeeze(-1)

    def clip_(self):
        with torch.no_grad():
            self.l1.weight.clamp_(-W1_LIMIT, W1_LIMIT)
            self.l1.bias.clamp_(-W1_LIMIT, W1_LIMIT)
            self.l2.weight.clamp_(-W2_LIMIT, W2_LIMIT)


def quantize(net):
    """Integer weights as the engine holds them."""
    w1 = net.l1.weight.detach().numpy().astype(np.float64)  # [HIDDEN1, INPUTS]
    b1 = net.l1.bias.detach().numpy().astype(np.float64)
    w2 = net.l2.weight.detach().numpy().astype(np.float64)  # [HIDDEN2, HIDDEN1]
    b2 = net.l2.bias.detach().numpy().astype(np.float64)
    w3 = net.l3.weight.detach().numpy().astype(np.float64)[0]
    b3 = float(net.l3.bias.detach().numpy()[0])
    return {
        "w1": np.round(w1.T * 127).astype(np.int16),  # input-major [INPUTS, HIDDEN1]
        "b1": np.round(b1 * 127).astype(np.int16),
        "w2": np.round(w2 * 64).astype(np.int16),
        "b2": np.round(b2 * 127 * 64).astype(np.int32),
        "w3": np.round(w3 * 256 * 100 / 127).astype(np.int32),
        "b3": np.int32(round(b3 * 256 * 100)),
    }


def integer_eval(q, x):
    """The engine's integer inference (src/eval/learned.cpp) on dense 0/1 inputs x [n, 128]."""
    acc = x.astype(np.int64) @ q["w1"].astype(np.int64) + q["b1"].astype(np.int64)
    assert np.all(np.abs(acc) < 32768), "accumulator overflows int16"
    a1 = np.clip(acc, 0, 127)
    z = a1 @ q["w2"].T.astype(np.int64) + q["b2"].astype(np.int64)
    a2 = np.clip(z >> 6, 0, 127)
    out = a2 @ q["w3"].astype(np.int64) + np.int64(q["b3"])
    return out >> 8  # arithmetic shift, as in C++20


def to_bytes(q, variant):
    """The weights file of version 2: the checksum covers the game field and the payload."""
    payload = b"".join([q["w1"].astype("<i2").tobytes(), q["b1"].astype("<i2").tobytes(),
                        q["w2"].astype("<i2").tobytes(), q["b2"].astype("<i4").tobytes(),
                        q["w3"].astype("<i4").tobytes(), np.int32(q["b3"]).astype("<i4").tobytes()])
    game = GAME_TYPE[variant].to_bytes(4, "little") + (0).to_bytes(4, "little")
    header = (MAGIC + VERSION.to_bytes(4, "little") + INPUTS.to_bytes(4, "little") +
              len(q["b1"]).to_bytes(4, "little") + HIDDEN2.to_bytes(4, "little") +
              fnv1a64(game + payload, FNV_OFFSET).to_bytes(8, "little"))
    return header + game + payload


def from_bytes(raw, path="weights"):
    """Header fields and integer weights of a weights file (version 1 or 2); checks the checksum."""
    if raw[:8] != MAGIC:
        raise ValueError(f"{path}: not a damas learned-weights file")
    version = int.from_bytes(raw[8:12], "little")
    if version not in (1, VERSION):
        raise ValueError(f"{path}: weights version {version}")
    inputs, hidden1, hidden2 = (int.from_bytes(raw[o:o + 4], "little") for o in (12, 16, 20))
    if (inputs, hidden2) != (INPUTS, HIDDEN2) or hidden1 not in (64, 128):
        raise ValueError(f"{path}: network shape {inputs}x{hidden1}x{hidden2}")
    start = 32 if version == 1 else 40
    if fnv1a64(raw[32:], FNV_OFFSET) != int.from_bytes(raw[24:32], "little"):
        raise ValueError(f"{path}: checksum mismatch")
    game = {v: k for k, v in GAME_TYPE.items()}.get(int.from_bytes(raw[32:36], "little")) \
        if version == VERSION else "brazilian"
    sizes = [("w1", "<i2", INPUTS * hidden1), ("b1", "<i2", hidden1), ("w2", "<i2", HIDDEN2 * hidden1),
             ("b2", "<i4", HIDDEN2), ("w3", "<i4", HIDDEN2), ("b3", "<i4", 1)]
    q, at = {}, start
    for name, dtype, n in sizes:
        q[name] = np.frombuffer(raw, dtype=dtype, count=n, offset=at)
        at += n * np.dtype(dtype).itemsize
    if at != len(raw):
        raise ValueError(f"{path}: size {len(raw)} bytes, expected {at}")
    q["w1"] = q["w1"].reshape(INPUTS, hidden1)
    q["w2"] = q["w2"].reshape(HIDDEN2, hidden1)
    return game, hidden1, q


def load_into(net, path):
    """Sets net's float weights from a weights file (the inverse of quantize, to its rounding): the
    start of a network trained further, e.g. one game's network adapted to another's data.
    Returns the game the file's network was trained for."""
    with open(path, "rb") as f:
        game, hidden1, q = from_bytes(f.read(), path)
    if hidden1 != net.l1.out_features:
        raise ValueError(f"{path}: {hidden1} first-layer units, the network has {net.l1.out_features}")
    with torch.no_grad():
        net.l1.weight.copy_(torch.from_numpy(q["w1"].T.astype(np.float32) / 127))
        net.l1.bias.copy_(torch.from_numpy(q["b1"].astype(np.float32) / 127))
        net.l2.weight.copy_(torch.from_numpy(q["w2"].astype(np.float32) / 64))
        net.l2.bias.copy_(torch.from_numpy(q["b2"].astype(np.float32) / (127 * 64)))
        net.l3.weight.copy_(torch.from_numpy(q["w3"].astype(np.float32)[None, :] * 127 / (256 * 100)))
        net.l3.bias.copy_(torch.tensor([float(q["b3"][0]) / (256 * 100)]))
    return game


def save(net, path, variant):
    q = quantize(net)
    with open(path, "wb") as f:
        f.write(to_bytes(q, variant))
    return q
