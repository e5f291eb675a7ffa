import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn`, for the browsers of the browser tests. Not Foundation's
/// `Process`: on Linux with Swift 6.3.1, `Process.run()` now and then crashes the whole test process (an
/// over-read of a `dirent` while it lists `/proc/self/fd`, swift-corelibs-foundation PR #5472), which
/// suites that start a browser per test hit. Like `Process`, it passes the child only its standard
/// input, output and error. (Chromium's one-shot `--dump-dom` mode does not finish when
/// started this way, so `CommandLineChromium` keeps `Process` for its two runs.)
final class ChildProcess: Sendable {
    /// Why a child could not be started.
    struct LaunchFailure: Error, CustomStringConvertible {
        let executable: String
        let step: String
        let code: Int32
        var description: String { "cannot start \(executable): \(step) failed: \(String(cString: strerror(code)))" }
    }

    let pid: pid_t
    /// The parent's end of the child's standard input, when one was asked for.
    let standardInput: FileHandle?
    /// The parent's end of the child's standard output, when one was asked for.
    let standardOutput: FileHandle?

    private init(pid: pid_t, standardInput: FileHandle?, standardOutput: FileHandle?) {
        self.pid = pid
        self.standardInput = standardInput
        self.standardOutput = standardOutput
    }

    /// Starts `executable` with `arguments` and `environment`. With `pipeInput`/`pipeOutput` the child's
    /// standard input/output is a pipe to this process; otherwise `/dev/null`, as is its standard error.
    static func launch(
        _ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        pipeInput: Bool = false, pipeOutput: Bool = false
    ) throws -> ChildProcess {
        func pipePair() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { throw LaunchFailure(executable: executable, step: "pipe", code: errno) }
            // Close-on-exec: another child started meanwhile must not hold this pipe open.
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return (fds[0], fds[1])
        }
        let input = pipeInput ? try pipePair() : nil
        let output = pipeOutput ? try pipePair() : nil
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of this process reaches the child: a browser holding a copy of a test server's
        // listening socket or of a connection would keep them open after the test closed them.
        closeOtherDescriptors(&actions)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        // The spawning thread may block signals (dispatch's workers do) and the test process ignores
        // SIGPIPE: the child starts with no signal blocked and every signal at its default, as a shell
        // would start it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // The child's ends belong to the child now (or to nobody, if it did not start).
        if let input { close(input.read) }
        if let output { close(output.write) }
        guard result == 0 else {
            if let input { close(input.write) }
            if let output { close(output.read) }
            throw LaunchFailure(executable: executable, step: "posix_spawn", code: result)
        }
        return ChildProcess(
            pid: pid,
            standardInput: input.map { FileHandle(fileDescriptor: $0.write, closeOnDealloc: true) },
            standardOutput: output.map { FileHandle(fileDescriptor: $0.read, closeOnDealloc: true) })
    }

    /// The raw wait status once the child has exited and was reaped by ``isRunning``.
    private let exitStatus = Mutex<Int32?>(nil)

    /// Adds to `actions` the closing of every descriptor above 2: glibc's `closefrom` action (2.34+,
    /// looked up at run time as Swift's Glibc module does not declare it), else a close for each
    /// descriptor open now (a close of one closed meanwhile is ignored by glibc).
    private static func closeOtherDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        #if canImport(Glibc)
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
                let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
                if closeFrom(&actions, 3) == 0 { return }
            }
        #endif
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }

    /// Whether the child still runs (reaps it once it has exited).
    var isRunning: Bool {
        exitStatus.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid || reaped == -1 { status = raw }
            return status == nil
        }
    }

    /// Asks the child to stop (SIGTERM).
    func terminate() {
        if isRunning { kill(pid, SIGTERM) }
    }

    deinit {
        // Never leave a zombie or a stray browser behind.
        if isRunning {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
    }
}
