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


def save(net, path, variant):
    q = quantize(net)
    with open(path, "wb") as f:
        f.write(to_bytes(q, variant))
    return q
