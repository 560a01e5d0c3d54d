import EarshotCLI
import Foundation

/// The package's root folder, from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// The package's Voices folder.
let voicesFolder = packageRoot + "/Voices"

/// What a run of `earshot` produced.
struct RunResult: Sendable {
    var status: Int32
    var output: String
    var error: String
}

/// Runs the built `earshot` executable as a subprocess.
enum EarshotBinary {
    /// The executable: `$EARSHOT_BINARY`, else next to the running test bundle (the build products
    /// folder, whatever `--scratch-path` was), else `.build/debug/earshot` under the package.
    static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["EARSHOT_BINARY"], !explicit.isEmpty { return explicit }
        var candidates: [String] = []
        // /proc/self/exe is the test bundle executable on Linux (…/debug/EarshotPackageTests.xctest).
        if let running = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: running).deletingLastPathComponent().path + "/earshot")
        }
        for bundle in [Bundle.main] + Bundle.allBundles {
            let folder = bundle.bundleURL.deletingLastPathComponent().path
            candidates.append(folder + "/earshot")
            candidates.append(folder + "/../earshot")  // inside an .xctest bundle folder (macOS)
        }
        candidates.append(packageRoot + "/.build/debug/earshot")
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The phrase cache folder of the binaries this test process runs, removed when it exits.
    static let phraseCacheFolder: String = {
        let folder = NSTemporaryDirectory() + "earshot-test-phrase-cache-" + UUID().uuidString
        atexit { try? FileManager.default.removeItem(atPath: EarshotBinary.phraseCacheFolder) }
        return folder
    }()

    /// Runs `earshot` with `arguments`, Voices found through `EARSHOT_VOICES`, in `folder`.
    static func run(_ arguments: [String], in folder: String? = nil, withVoices: Bool = true) throws -> RunResult {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        return try runProgram(
            path, arguments, in: folder, environment: ["EARSHOT_VOICES": withVoices ? voicesFolder : nil])
    }

    /// Starts `earshot` with `arguments` and its standard streams on /dev/null, Voices found through
    /// `EARSHOT_VOICES`, this process's environment changed by `environment`; for a test that signals it or watches
    /// what it writes while it runs.
    static func start(_ arguments: [String], environment changes: [String: String] = [:]) throws -> Process {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["EARSHOT_VOICES"] = voicesFolder
        environment.merge(changes) { _, given in given }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Whether starting a program failed because its file was open for writing somewhere (ETXTBSY).
    static func isBusy(_ error: any Error) -> Bool {
        let described = error as NSError
        let underlying = described.userInfo[NSUnderlyingErrorKey] as? NSError
        return [described, underlying].contains { $0?.domain == NSPOSIXErrorDomain && $0?.code == Int(ETXTBSY) }
    }

    /// Runs `program` with `arguments` in `folder` (a scratch folder when nil), this process's environment
    /// changed by `environment` (nil removes a variable); its status and both streams.
    static func runProgram(
        _ program: String, _ arguments: [String], in folder: String? = nil, environment changes: [String: String?] = [:]
    ) throws -> RunResult {
        let scratch = NSTemporaryDirectory() + "earshot-cli-run-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // Files rather than pipes: no deadlock however much either stream prints.
        let outPath = scratch + "/out"
        let errPath = scratch + "/err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        var environment = ProcessInfo.processInfo.environment
        // A phrase cache of this test process's own, never the user's: every test run starts cold.
        environment["EARSHOT_CACHE_DIR"] = phraseCacheFolder
        for (name, value) in changes { environment[name] = value }
        var process = Process()
        // Its end is told at once (`waitUntilExit()` looks only every 50 ms on a thread without a run loop).
        let ended = DispatchSemaphore(value: 0)
        for attempt in 1... {
            process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            process.environment = environment
            process.currentDirectoryURL = URL(fileURLWithPath: folder ?? scratch)
            process.standardOutput = out
            process.standardError = err
            process.standardInput = FileHandle.nullDevice
            process.terminationHandler = { _ in ended.signal() }
            do {
                try process.run()
                break
            } catch let error where attempt < 100 && Self.isBusy(error) {
                // A program copied just now can be busy for a moment: a process another test forked while the copy
                // was open for writing holds it until that process starts its own program (ETXTBSY). Trying again
                // is the usual remedy; the holder lets go within microseconds.
                usleep(10_000)
            }
        }
        ended.wait()
        try out.close()
        try err.close()
        return RunResult(
            status: process.terminationStatus,
            output: try String(contentsOfFile: outPath, encoding: .utf8),
            error: try String(contentsOfFile: errPath, encoding: .utf8))
    }
}

/// A command context that collects what a command prints.
final class CapturedContext: @unchecked Sendable {
    private let lock = NSLock()
    private var outputText = ""
    private var errorText = ""

    var output: String { lock.withLock { outputText } }
    var error: String { lock.withLock { errorText } }

    var context: CommandContext {
        CommandContext(
            writeOutput: { text in self.lock.withLock { self.outputText += text } },
            writeError: { text in self.lock.withLock { self.errorText += text } },
            environment: ["EARSHOT_VOICES": voicesFolder])
    }
}

/// A fresh folder for output files, removed by `remove()`.
struct OutputFolder {
    let path = NSTemporaryDirectory() + "earshot-cli-tests-" + UUID().uuidString

    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }

    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? [] }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
