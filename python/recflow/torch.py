"""recflow.torch.IterableDataset: recflow inputs as a PyTorch IterableDataset, every record once per epoch across
DataLoader workers and distributed ranks (by splits), optionally shuffled through a seeded buffer."""
import random
import warnings

import numpy as np
import torch
import torch.utils.data

from recflow._dataset import Dataset

# torch.from_numpy warns once per process that a read-only array (a view on an Arrow buffer) is not writable, and
# shares it all the same: the first call is made in a catch_warnings block (one per column cost more than the tensor).
_quiet_from_numpy_done = False


def _global_worker(rank, world_size):
    """(this reader's index, number of readers) over ranks × DataLoader workers."""
    if world_size is None:
        if torch.distributed.is_available() and torch.distributed.is_initialized():
            rank, world_size = torch.distributed.get_rank(), torch.distributed.get_world_size()
        else:
            rank, world_size = 0, 1
    if not 0 <= rank < world_size:
        raise ValueError(f"rank {rank} is not in [0, world_size={world_size})")
    info = torch.utils.data.get_worker_info()
    workers, worker = (1, 0) if info is None else (info.num_workers, info.id)
    return rank * workers + worker, world_size * workers


def _tensors(columns):
    """A batch dict as tensors (torch.from_numpy: shared, not copied, where the array allows); a
    masked column gives its values (nulls filled with 0) and a bool tensor NAME + "_mask" (True = null)."""
    out = {}
    for name, value in columns.items():
        if np.ma.isMaskedArray(value):
            out[name + "_mask"] = torch.from_numpy(np.ma.getmaskarray(value))
            value = value.filled(0)
        if value.dtype == object:
            out[name] = list(value)
            continue
        out[name] = _from_numpy(value)
    return out


def _from_numpy(value):
    """torch.from_numpy(value), its one warning about a read-only array kept quiet."""
    global _quiet_from_numpy_done
    if _quiet_from_numpy_done:
        return torch.from_numpy(value)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        tensor = torch.from_numpy(value)
    _quiet_from_numpy_done = not value.flags.writeable  # torch warned (once for the process), or had warned before
    return tensor


class IterableDataset(torch.utils.data.IterableDataset):
    """Yields the records of ``paths`` (anything recflow.read reads) as dicts of tensors: one record
    per item, or with ``batch_size`` one batch per item (then pass ``batch_size=None`` to the
    DataLoader). The splits of the inputs (``split_bytes`` each; a compressed file is one) are
    shared out round-robin over rank × DataLoader worker, so every record is read exactly once per
    epoch whatever ``num_workers`` and ``world_size`` are. ``rank``/``world_size`` default to
    torch.distributed's when it is initialised, else 0/1. With ``shuffle``, the split order is
    shuffled (the same way in every reader) and rows go through a shuffle buffer of
    ``shuffle_buffer`` rows, all seeded by ``seed`` and the epoch (``set_epoch``). List columns, and
    binary columns as uint8 (raw images), are padded to 2-D tensors with ``pad``; strings stay lists
    of str. ``threads``: the engine threads decoding each read (0: every core); by default one in each
    DataLoader worker (the workers share the cores) and every core when read in the main process
    (``num_workers=0``), where the engine then frames and checks the records of one piece of the input
    while other threads decode the pieces before it, beside the training loop's thread. Other arguments
    as recflow.read."""

    def __init__(self, paths, batch_size=None, shuffle=False, seed=0, shuffle_buffer=10000, rank=None,
                 world_size=None, split_bytes=64 << 20, threads=None, pad=0, **read_options):
        super().__init__()
        if (rank is None) != (world_size is None):
            raise ValueError("give both rank and world_size, or neither")
        self.threads = threads
        self.dataset = Dataset(paths, **read_options)
        self.batch_size, self.shuffle, self.seed, self.shuffle_buffer = batch_size, shuffle, seed, shuffle_buffer
        self.rank, self.world_size, self.pad = rank, world_size, pad
        self.splits = self.dataset.splits(split_bytes)
        self.epoch = 0

    def set_epoch(self, epoch):
        """Reshuffles for ``epoch`` (call it before each epoch's iteration, as with DistributedSampler)."""
        self.epoch = epoch

    def _engine_threads(self):
        """The engine threads of this reader's reads: ``threads`` when given, else 1 in a DataLoader worker and 0
        (every core) in the main process."""
        if self.threads is not None:
            return self.threads
        return 0 if torch.utils.data.get_worker_info() is None else 1

    def my_splits(self):
        """The splits this reader (rank × DataLoader worker) reads this epoch."""
        index, readers = _global_worker(self.rank, self.world_size)
        splits = list(self.splits)
        if self.shuffle:
            random.Random(f"{self.seed}/{self.epoch}").shuffle(splits)
        return splits[index::readers]

    def _batches(self):
        splits = self.my_splits()
        if not splits:
            return
        batches = self.dataset.batches(None if self.shuffle else self.batch_size, splits=splits, lists="dense",
                                       pad=self.pad, binary="uint8", threads=self._engine_threads())
        if self.shuffle:
            index, _ = _global_worker(self.rank, self.world_size)
            batches = _shuffled(batches, self.shuffle_buffer, self.batch_size,
                                np.random.default_rng([self.seed, self.epoch, index]))
        yield from batches

    def __iter__(self):
        for batch in self._batches():
            tensors = _tensors(batch)
            if self.batch_size is not None:
                yield tensors
                continue
            rows = len(next(iter(batch.values())))
            for i in range(rows):
                yield {name: value[i] for name, value in tensors.items()}


def _shuffled(batches, buffer_rows, batch_size, rng):
    """The rows of ``batches`` through a shuffle buffer: up to ``buffer_rows`` rows gathered, permuted
    by ``rng`` and handed out in batches of ``batch_size`` (or as one batch when None)."""
    pending, rows = [], 0
    for batch in batches:
        pending.append(batch)
        rows += len(next(iter(batch.values())))
        if rows >= buffer_rows:
            yield from _permuted(pending, batch_size, rng)
            pending, rows = [], 0
    if pending:
        yield from _permuted(pending, batch_size, rng)


def _permuted(batches, batch_size, rng):
    """``batches`` concatenated, their rows permuted, cut into batches of ``batch_size`` rows."""
    names = list(batches[0])
    joined = {name: (np.ma.concatenate if any(np.ma.isMaskedArray(b[name]) for b in batches) else np.concatenate)(
        [b[name] for b in batches]) for name in names}
    rows = len(joined[names[0]])
    order = rng.permutation(rows)
    step = batch_size or rows
    for begin in range(0, rows, step):
        take = order[begin:begin + step]
        yield {name: value[take] for name, value in joined.items()}
