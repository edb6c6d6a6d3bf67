#if canImport(Glibc)
import Glibc
#endif

// Entry point: parse, run, and turn every failure into a message and an exit status
// (2 for bad flags and unusable terminals, as the usage contract promises).
Launch.mark()
// Malloc thresholds fixed, not glibc's dynamic ones. Dynamic, the mmap threshold rises
// after the first large free and later decode buffers stay in the heap for good (27 → 95
// MB over an 8 s fling). Fixed at 128 KiB, every decode buffer was an mmap/munmap pair,
// each taking the address space's lock for writing: a low-priority worker preempted there
// stalled the main thread's next page fault (commits of 36 ms to 1 s with `--stress 2`).
// At 32 MiB with an 8 MiB trim threshold, buffers are reused inside each worker's arena
// and memory stays bounded (26.6 → 38.6 → 41.9 MB over a 20 s fling); DECISIONS.md D-019.
_ = mallopt(-3 /* M_MMAP_THRESHOLD */, 32 << 20)
_ = mallopt(-1 /* M_TRIM_THRESHOLD */, 8 << 20)
exit(DestinationsCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))

/// glibc's mallopt (malloc.h is not part of Swift's Glibc module).
@_silgen_name("mallopt") func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
