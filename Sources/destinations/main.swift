#if canImport(Glibc)
import Glibc
#endif

// Entry point: parse, run, and turn every failure into a message and an exit status
// (2 for bad flags and unusable terminals, as the usage contract promises).
Launch.mark()
// Decode buffers of large photos are freed at once, but glibc raises its mmap threshold
// after the first such free and keeps later ones in the heap for good: resident memory
// then climbs while scrolling (measured: 27 → 95 MB over an 8 s fling). A fixed threshold
// hands them back to the kernel (27 → 30 MB); see BENCHMARKS.md.
_ = mallopt(-3 /* M_MMAP_THRESHOLD */, 128 * 1024)
exit(DestinationsCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))

/// glibc's mallopt (malloc.h is not part of Swift's Glibc module).
@_silgen_name("mallopt") func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
