#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library calls of CollectionView, in one place: the math library's `pow` and
/// `log` for scroll physics (the standard library has neither). No other file of the target imports libc or Foundation.
enum Platform {
    static func power(_ base: Double, _ exponent: Double) -> Double { pow(base, exponent) }
    static func naturalLog(_ value: Double) -> Double { log(value) }

}
