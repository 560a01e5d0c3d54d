import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the commands do with output paths that are not plain files, and with a standard output that cannot be
/// written: nothing is replaced that is not a regular file, and lost output is an error.
@Suite struct OutputFilesTests {
    static let script = packageRoot + "/Scripts/announcement-spam/after-search.earshot"
    static let otherScript = packageRoot + "/Scripts/announcement-spam/before-search.earshot"

    /// `st_mode`'s file type of `path` itself.
    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o170_000 : nil
    }

    /// A character device like `/dev/null` at `path` (the suite runs as root).
    static func makeNullDevice(_ path: String) throws { try makeDevice(path, minor: 3) }

    /// A private `/dev/full`: a regression can then only replace this node, never the system's.
    static func makeFullDevice(_ path: String) throws { try makeDevice(path, minor: 7) }

    private static func makeDevice(_ path: String, minor: UInt64) throws {
        guard mknod(path, mode_t(0o020_666), dev_t(1 << 8) | dev_t(minor)) == 0 else {  // makedev(1, minor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM)
        }
    }

    @Test func checkJUnitIntoACharacterDeviceWritesThroughAndLeavesTheDevice() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let device = folder.path + "/null"
        try Self.makeNullDevice(device)
        let result = try EarshotBinary.run(["check", "--junit", device, Self.script])
        #expect(result.status == 0, "\(result.error)")
        #expect(Self.fileType(device) == 0o020_000, "the device was replaced")
        #expect(folder.contents == ["null"])
    }

    @Test func checkJUnitIntoAFullDeviceFailsNamingIt() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let full = folder.path + "/full"
        try Self.makeFullDevice(full)
        let result = try EarshotBinary.run(["check", "--junit", full, Self.script])
        #expect(result.status == 1)
        #expect(result.error.contains("cannot write \(full): No space left on device"), "\(result.error)")
        #expect(Self.fileType(full) == 0o020_000)
        #expect(folder.contents == ["full"])
    }

    @Test(arguments: ["out.wav", "out.vtt", "out.jsonl", "out.html"])
    func aRenderRefusesADeviceOrFIFOAmongItsOutputsBeforeAnyWork(name: String) throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let taken = folder.path + "/" + name
        if name == "out.vtt" { #expect(mkfifo(taken, 0o600) == 0) } else { try Self.makeNullDevice(taken) }
        let before = Self.fileType(taken)
        let result = try EarshotBinary.run([
            "render", Self.script, "-o", folder.path + "/out.wav", "--html", folder.path + "/out.html",
        ])
        #expect(result.status == 64)
        let kind = name == "out.vtt" ? "FIFO (named pipe)" : "character device"
        #expect(result.error.contains("\(taken): it is a \(kind), not a regular file"), "\(result.error)")
        #expect(Self.fileType(taken) == before)
        #expect(folder.contents == [name])
    }

    @Test func aRenderThroughASymbolicLinkReplacesTheFileItPointsAtAndKeepsTheLink() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/runs", withIntermediateDirectories: false)
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder.path + "/runs/1.wav"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/latest.wav", withDestinationPath: "runs/1.wav")
        let result = try EarshotBinary.run(["render", Self.script, "-o", folder.path + "/latest.wav"])
        #expect(result.status == 0, "\(result.error)")
        #expect(Self.fileType(folder.path + "/latest.wav") == 0o120_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/runs") == ["1.wav"])
        let verified = try EarshotBinary.run(["verify", folder.path + "/latest.wav"])
        #expect(verified.status == 0, "\(verified.error)")
    }

    @Test func aLinkToADeviceIsRefusedLikeTheDevice() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        try Self.makeFullDevice(folder.path + "/full")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/out.wav", withDestinationPath: "full")
        let result = try EarshotBinary.run(["render", Self.script, "-o", folder.path + "/out.wav"])
        #expect(result.status == 64)
        #expect(result.error.contains("it is a character device"), "\(result.error)")
        #expect(Self.fileType(folder.path + "/out.wav") == 0o120_000)
        #expect(Self.fileType(folder.path + "/full") == 0o020_000)
        #expect(folder.contents == ["full", "out.wav"])
    }

    /// Runs `earshot` with standard output on `/dev/full` (or a regular file), standard error collected.
    static func runWithStandardOutput(on path: String, _ arguments: [String], in folder: String) throws -> RunResult {
        guard let binary = EarshotBinary.path else { throw CocoaError(.fileNoSuchFile) }
        let errors = folder + "/stderr.txt"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["EARSHOT_VOICES"] = voicesFolder
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let output = try #require(FileHandle(forWritingAtPath: path))
        let errorHandle = try #require(FileHandle(forWritingAtPath: errors))
        process.standardOutput = output
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try output.close()
        try errorHandle.close()
        let text = try String(contentsOfFile: errors, encoding: .utf8)
        try FileManager.default.removeItem(atPath: errors)
        return RunResult(status: process.terminationStatus, output: "", error: text)
    }

    static let printingCommands: [[String]] = [
        ["check", script],
        ["check", "--transcript", script],
        ["say", "-o", "hello.wav", "Hello there"],
        ["render", script, "-o", "out.wav"],
        ["compare", otherScript, script, "-o", "ab.wav"],
        ["voices"],
        ["--help"],
    ]

    @Test(arguments: printingCommands)
    func standardOutputOnAFullDeviceExitsNonZeroSayingSo(words: [String]) throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let full = try Self.runWithStandardOutput(on: "/dev/full", words, in: folder.path)
        #expect(full.status == 1, "\(full.error)")
        #expect(full.error.contains("earshot: error: cannot write standard output: No space left on device"))
        let file = folder.path + "/stdout.txt"
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        let fine = try Self.runWithStandardOutput(on: file, words, in: folder.path)
        #expect(fine.status == 0, "\(fine.error)")
        #expect(!fine.error.contains("standard output"))
        #expect((try String(contentsOfFile: file, encoding: .utf8)).isEmpty == false)
    }

    @Test func verifyPassesAWholeSetAndNamesEachFileFromAnotherRender() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let a = folder.path + "/a.wav"
        let b = folder.path + "/b.wav"
        #expect(try EarshotBinary.run(["render", Self.script, "-o", a, "--html", folder.path + "/a.html"]).status == 0)
        #expect(try EarshotBinary.run(["render", Self.otherScript, "-o", b]).status == 0)
        let whole = try EarshotBinary.run(["verify", a, b])
        #expect(whole.status == 0, "\(whole.error)")
        #expect(whole.output.contains("\(a): whole"))
        // What SIGKILL between two renames leaves: b's transcript and timeline beside a's WAV and page.
        for ext in ["vtt", "jsonl"] {
            try FileManager.default.removeItem(atPath: folder.path + "/a." + ext)
            try FileManager.default.copyItem(atPath: folder.path + "/b." + ext, toPath: folder.path + "/a." + ext)
        }
        let mixed = try EarshotBinary.run(["verify", a])
        #expect(mixed.status == 1)
        #expect(mixed.error.contains("\(folder.path)/a.vtt was written for other audio"), "\(mixed.error)")
        #expect(mixed.error.contains("\(folder.path)/a.jsonl was written for other audio"))
        #expect(!mixed.error.contains("a.html"))
        try FileManager.default.removeItem(atPath: folder.path + "/b.jsonl")
        let missing = try EarshotBinary.run(["verify", b])
        #expect(missing.status == 1)
        #expect(missing.error.contains("\(folder.path)/b.jsonl is missing"))
    }

    @Test func samplesCheckReportsAMixedSet() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let scripts = folder.path + "/Scripts/pattern"
        try FileManager.default.createDirectory(atPath: scripts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.script, toPath: scripts + "/after-search.earshot")
        let samples = folder.path + "/Samples"
        let made = try EarshotBinary.run(["samples", "--scripts", folder.path + "/Scripts", "-o", samples])
        #expect(made.status == 0, "\(made.error)")
        let fresh = try EarshotBinary.run(["samples", "--check", "--scripts", folder.path + "/Scripts", "-o", samples])
        #expect(fresh.status == 0, "\(fresh.output)\(fresh.error)")
        // A transcript from other audio, as a killed render could leave it.
        let vtt = samples + "/pattern/after-search.vtt"
        let other = try String(contentsOfFile: vtt, encoding: .utf8)
            .replacingOccurrences(of: "NOTE earshot-audio fnv1a64x4:", with: "NOTE earshot-audio fnv1a64x4:0")
        try other.write(toFile: vtt, atomically: false, encoding: .utf8)
        let mixed = try EarshotBinary.run(["samples", "--check", "--scripts", folder.path + "/Scripts", "-o", samples])
        #expect(mixed.status == 1)
        #expect(mixed.output.contains("mixed: \(vtt) "), "\(mixed.output)")
    }
}
