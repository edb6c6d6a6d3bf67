/// Runs libFuzzer on `testOneInput` with the process's arguments (`-max_total_time=60`,
/// corpus folders, …) and returns its exit status.
///
/// SwiftPM links an executable with `--defsym main=<module>_main`, so each fuzz target
/// defines that symbol itself and calls this: libFuzzer's own `main` (an archive member
/// pulled in only when `main` is undefined) stays out, and `LLVMFuzzerRunDriver` (libFuzzer's
/// documented entry for programs with their own main) drives the run.
public func runLibFuzzer(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                         _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
    #if FUZZING
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, testOneInput)
    #else
    print("built without libFuzzer: run it through `make fuzz`")
    return 0
    #endif
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                                 _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                                 _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32
#endif
