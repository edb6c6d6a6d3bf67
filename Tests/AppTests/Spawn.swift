import Foundation

/// Starts a program with posix_spawn and waits with waitpid. (Foundation's Process, run
/// from Swift Testing's task pool, sometimes never reaps a child here, and then
/// `waitUntilExit` blocks forever.)
enum Spawn {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `arguments[0]` (looked up in PATH) with stdin from /dev/null; captures stdout
    /// and stderr unless `capture` is false (then both go to /dev/null, which a daemon
    /// such as the tmux server may keep open without blocking us).
    static func run(_ arguments: [String], environment: [String: String] = [:], capture: Bool = true) throws -> Result {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        if capture {
            guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw POSIXError(.EMFILE) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capture {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
            for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = env.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // The calling thread is a pool worker that blocks most signals; a child would
        // inherit that mask (and never see SIGWINCH). Start it with a clean slate.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let error = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, &envp)
        if capture { close(outPipe[1]); close(errPipe[1]) }
        guard error == 0 else { throw POSIXError(POSIXErrorCode(rawValue: error) ?? .ENOENT) }
        var stdout = Data(), stderr = Data()
        if capture {
            // Read both to EOF on two threads so neither pipe can fill up and stall the child.
            let group = DispatchGroup()
            let errFD = errPipe[0]
            nonisolated(unsafe) var errData = Data()
            DispatchQueue.global().async(group: group) { errData = readAll(errFD) }
            stdout = readAll(outPipe[0])
            group.wait()
            stderr = errData
            close(outPipe[0]); close(errPipe[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: exitStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    private static func readAll(_ fd: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 { data.append(contentsOf: buffer[0..<count]) } else if count == 0 || errno != EINTR { break }
        }
        return data
    }
}
