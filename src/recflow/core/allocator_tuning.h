// TuneAllocator: glibc malloc settings for a process that allocates and frees a batch's columns over and over.
#pragma once

namespace recflow {

/// Keeps freed batch memory for reuse instead of returning it to the kernel after every batch.
///
/// A pipeline allocates each batch's columns (a few hundred KiB to a few MiB each) and frees
/// them a moment later. With glibc's defaults such blocks are mapped and unmapped, or trimmed
/// from the heap, every time, and each reuse faults its pages in again: about 5 % of the image
/// pipeline's time on two threads. Blocks under 32 MiB now come from the heap, and a heap keeps
/// up to 256 MiB of free memory at its top: the process's memory stays at its peak rather than
/// following each batch down and up (measured on 2 cores: convert's peak RSS grew 3–13 MiB).
/// Nothing changes when GLIBC_TUNABLES is set. Call once, before any thread starts: `recflow`'s
/// main and every benchmark binary's (bench/benchmark_main.cc) do, so benchmarks measure the
/// allocator the command runs with. A Dask worker, already running, calls it before its first
/// recflow task (python/recflow/dask.py): the settings are process-wide and take effect at once.
void TuneAllocator();

/// For `recflow serve`, whose passes run on many worker threads and whose memory must go back
/// to the system when clients leave: every thread allocates from the main arena. glibc gives
/// each thread that meets contention an arena of its own (up to 8 per core), and malloc_trim
/// returns the free pages inside every arena but shrinks only the main arena's top, so with
/// per-thread arenas hundreds of MiB stayed resident after 64 clients left (measured: 196 MiB
/// with trims; one arena: back to the baseline). The price is one lock for every allocation,
/// which passes make per unit and per batch, not per row. Nothing changes when GLIBC_TUNABLES
/// is set. Call once, before any thread starts.
void UseOneArena();

}  // namespace recflow
