#!/usr/bin/env python3
"""The toolkit's main-thread types cannot reach a second thread: the compiler says so.

Compiles (to SIL: races are diagnosed there, not by -typecheck) each file of Tests/Isolation against the built modules in Swift 6 mode. A file
whose first line is `// expect: ok` must compile; one whose first line is
`// expect: error: TEXT` must be refused with a diagnostic containing TEXT. Needs a debug
build (`swift build`).

    python3 scripts/check_isolation.py [.build/debug/Modules]
"""
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def c_module_flags(modules):
    """The flags that find every C target of the package, as the Swift modules importing
    them were built: a system library's own module map (Sources/CNcursesw, …), or the map
    SwiftPM generated in the build folder for a target with an include folder
    (CTerminalRestore, CThreadScheduling, …)."""
    flags = []
    for folder in sorted(glob.glob(os.path.join(ROOT, "Sources", "C*"))):
        name = os.path.basename(folder)
        if os.path.exists(os.path.join(folder, "module.modulemap")):
            flags += ["-I", folder]
        elif os.path.isdir(os.path.join(folder, "include")):
            generated = os.path.join(os.path.dirname(modules), name + ".build", "module.modulemap")
            flags += ["-Xcc", "-fmodule-map-file=" + generated, "-I", os.path.join(folder, "include")]
    return flags


def main():
    modules = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "Modules")
    failures, files = 0, sorted(glob.glob(os.path.join(ROOT, "Tests", "Isolation", "*.swift")))
    for path in files:
        expect = open(path).readline().strip().removeprefix("// expect:").strip()
        result = subprocess.run(["swiftc", "-emit-sil", "-o", os.devnull, "-swift-version", "6", "-I", modules,
                                 *c_module_flags(modules), path],
                                capture_output=True, text=True)
        output = result.stdout + result.stderr
        name = os.path.basename(path)
        if expect == "ok":
            ok = result.returncode == 0
            what = "compiles" if ok else f"was refused:\n{output}"
        else:
            wanted = expect.removeprefix("error:").strip()
            ok = result.returncode != 0 and wanted in output and "error:" in output
            what = f"refused ({wanted})" if ok else f"not refused with '{wanted}' (status {result.returncode}):\n{output}"
        print(f"check_isolation: {'ok' if ok else 'FAIL'} {name}: {what}")
        failures += 0 if ok else 1
    print(f"check_isolation: {len(files) - failures} of {len(files)} files as expected")
    sys.exit(1 if failures or not files else 0)


if __name__ == "__main__":
    main()
