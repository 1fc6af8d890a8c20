"""Reader of damas training-data files (format: include/damas/core/training_data.h), memory-mapped.

A file is refused unless its magic, version, game, record size, length and FNV-1a 64 checksum match.
Version 2 names the game of its positions (a PDN GameType); version 1 is Brazilian.
"""
import numpy as np

MAGIC = b"DAMASTD\0"
VERSION = 2
HEADER_BYTES = 40  # version 1: 32
GAME_TYPES = {26: "brazilian", 25: "russian"}  # PDN GameType -> variant (include/damas/core/types.h)
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


def load_with_variant(path, verify=True):
    """(variant name, memory-mapped structured array of the file's records)."""
    with open(path, "rb") as f:
        header = f.read(HEADER_BYTES)
    if len(header) < 32 or header[:8] != MAGIC:
        raise DataError(f"{path}: not a damas training-data file")
    version = int.from_bytes(header[8:12], "little")
    if version not in (1, VERSION):
        raise DataError(f"{path}: version {version}, this trainer reads versions 1 and {VERSION}")
    header_bytes, variant = 32, "brazilian"
    if version == VERSION:
        if len(header) < HEADER_BYTES:
            raise DataError(f"{path}: too short for a training-data header")
        game_type = int.from_bytes(header[32:36], "little")
        if game_type not in GAME_TYPES:
            raise DataError(f"{path}: unknown game (PDN GameType {game_type})")
        if int.from_bytes(header[36:40], "little") != 0:
            raise DataError(f"{path}: reserved header field is not zero")
        header_bytes, variant = HEADER_BYTES, GAME_TYPES[game_type]
    if int.from_bytes(header[12:16], "little") != RECORD.itemsize:
        raise DataError(f"{path}: unexpected record size")
    count = int.from_bytes(header[16:24], "little")
    size = _size(path)
    if (size - header_bytes) % RECORD.itemsize or (size - header_bytes) // RECORD.itemsize != count:
        raise DataError(f"{path}: size does not match {count} records (truncated or unfinished)")
    records = np.memmap(path, dtype=RECORD, mode="r", offset=header_bytes) if count else \
        np.zeros(0, dtype=RECORD)
    if verify:
        start = fnv1a64(header[32:40]) if version == VERSION else FNV_OFFSET
        if fnv1a64(np.asarray(records).tobytes(), start) != int.from_bytes(header[24:32], "little"):
            raise DataError(f"{path}: checksum mismatch")
    return variant, records


def load(path, verify=True):
    """Returns a memory-mapped structured array of the file's records."""
    return load_with_variant(path, verify)[1]


def _size(path):
    import os
    return os.path.getsize(path)


def concat_with_variant(paths, verify=True):
    """(variant, all records): the files must be of one game."""
    loaded = [load_with_variant(p, verify) for p in paths]
    variants = {v for v, _ in loaded}
    if len(variants) != 1:
        named = ", ".join(f"{p} ({v})" for p, (v, _) in zip(paths, loaded))
        raise DataError(f"the files hold positions of different games: {named}")
    return variants.pop(), np.concatenate([np.asarray(r) for _, r in loaded])


def concat(paths, verify=True):
    return concat_with_variant(paths, verify)[1]


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
