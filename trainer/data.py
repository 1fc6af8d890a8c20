"""Reader of damas training-data files (format: include/damas/core/training_data.h), memory-mapped.

A file is refused unless its magic, version, record size, length and FNV-1a 64 checksum match.
"""
import numpy as np

MAGIC = b"DAMASTD\0"
VERSION = 1
HEADER_BYTES = 32
RECORD = np.dtype([("white", "<u4"), ("black", "<u4"), ("kings", "<u4"), ("score", "<i2"),
                   ("flags", "u1"), ("ply", "u1")])
assert RECORD.itemsize == 16

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a64(data, h=FNV_OFFSET):
    """FNV-1a 64 of a bytes-like object (serial by design: pure Python, a few MB/s)."""
    mask = (1 << 64) - 1
    for b in memoryview(data).cast("B"):
        h = ((h ^ b) * FNV_PRIME) & mask
    return h


class DataError(Exception):
    pass


def load(path, verify=True):
    """Returns a memory-mapped structured array of the file's records."""
    with open(path, "rb") as f:
        header = f.read(HEADER_BYTES)
    if len(header) < HEADER_BYTES or header[:8] != MAGIC:
        raise DataError(f"{path}: not a damas training-data file")
    version = int.from_bytes(header[8:12], "little")
    if version != VERSION:
        raise DataError(f"{path}: version {version}, this trainer reads version {VERSION}")
    if int.from_bytes(header[12:16], "little") != RECORD.itemsize:
        raise DataError(f"{path}: unexpected record size")
    count = int.from_bytes(header[16:24], "little")
    records = np.memmap(path, dtype=RECORD, mode="r", offset=HEADER_BYTES)
    if len(records) != count or records.nbytes + HEADER_BYTES != _size(path):
        raise DataError(f"{path}: size does not match {count} records (truncated or unfinished)")
    if verify and fnv1a64(np.asarray(records).tobytes()) != int.from_bytes(header[24:32], "little"):
        raise DataError(f"{path}: checksum mismatch")
    return records


def _size(path):
    import os
    return os.path.getsize(path)


def concat(paths, verify=True):
    return np.concatenate([np.asarray(load(p, verify)) for p in paths])


def game_ids(records):
    """Game number of every record (bit 3 of flags marks a game's first record)."""
    return np.cumsum((records["flags"] >> 3) & 1) - 1


def result_for_side_to_move(records):
    """1 win, 0.5 draw, 0 loss for the side to move."""
    white_result = ((records["flags"] >> 1) & 3).astype(np.float32) / 2.0
    black_to_move = (records["flags"] & 1).astype(bool)
    return np.where(black_to_move, 1.0 - white_result, white_result).astype(np.float32)


def features(records):
    """Dense 128 inputs per record from the side to move's view (include/damas/eval/learned.h):
    own men, own kings, their men, their kings, 32 squares each; Black's squares rotated."""
    n = len(records)
    white = records["white"].astype(np.uint64)
    black = records["black"].astype(np.uint64)
    kings = records["kings"].astype(np.uint64)
    black_to_move = (records["flags"] & 1).astype(bool)
    bits = np.arange(32, dtype=np.uint64)

    def unpack(mask):
        return ((mask[:, None] >> bits[None, :]) & 1).astype(np.float32)

    us = np.where(black_to_move, black, white)
    them = np.where(black_to_move, white, black)
    planes = [unpack(us & ~kings), unpack(us & kings), unpack(them & ~kings), unpack(them & kings)]
    x = np.concatenate(planes, axis=1)
    # Black's view: square index i -> 31 - i within each plane.
    flipped = x.reshape(n, 4, 32)[:, :, ::-1].reshape(n, 128)
    return np.where(black_to_move[:, None], flipped, x).astype(np.float32)
