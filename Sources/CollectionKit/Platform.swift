#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library calls of CollectionView, in one place: the math library's `pow` and
/// `log` for scroll physics (the standard library has neither), and giving freed memory
/// back to the system. No other file of the target imports libc or Foundation.
enum Platform {
    static func power(_ base: Double, _ exponent: Double) -> Double { pow(base, exponent) }
    static func naturalLog(_ value: Double) -> Double { log(value) }

    /// Puts the calling thread in Linux's `SCHED_BATCH` class (policy 3): the same share of
    /// the CPU as a normal thread, but its wake-ups never preempt the thread running (the
    /// kernel's rule for batch threads). Any thread may enter it without privilege. False
    /// if the system refused, or elsewhere.
    @discardableResult
    static func setCurrentThreadBatchClass() -> Bool {
        #if os(Linux)
        var parameters = sched_param()
        return sched_getscheduler(0) == 3 || sched_setscheduler(0, 3, &parameters) == 0
        #else
        return false
        #endif
    }

    /// Returns the free memory of every malloc arena to the system (`malloc_trim(0)`).
    /// Snapshots of a million items are built and freed on whichever thread the data
    /// source's queue runs: without this, each thread's arena kept its high-water mark and
    /// a long session's resident memory only grew (187 → 489 MB in a 10-minute soak).
    static func returnFreeMemoryToTheSystem() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}

#if canImport(Glibc)
/// glibc's malloc_trim (malloc.h is not part of Swift's Glibc module).
@_silgen_name("malloc_trim") private func malloc_trim(_ pad: Int) -> Int32
#endif
