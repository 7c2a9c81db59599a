"""Whether glibc's heap keeps a freed batch-sized block for the next batch (what recflow's malloc settings do)."""
import ctypes


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                     "fsmblks", "uordblks", "fordblks", "keepcost")]


def heap_keeps_a_freed_batch(size=4 << 20):
    """Whether a block of `size` bytes, allocated and freed, stays at the top of this process's heap (mallinfo2's
    keepcost) rather than being unmapped or trimmed — glibc's defaults map a 4 MiB block and unmap it on free."""
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    libc.mallinfo2.restype = _MallInfo2
    libc.free(libc.malloc(size))
    return libc.mallinfo2().keepcost >= size
