import EarshotBench
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A small tmpfs mounted for one test (the suite runs as root), unmounted by `unmount()`.
final class SmallDisk {
    let path: String

    /// Whether this process may mount a tmpfs; tests that need one are skipped, saying why, when it may not.
    static let canMount: Bool = {
        guard let disk = try? SmallDisk(kilobytes: 64) else { return false }
        disk.unmount()
        return true
    }()

    /// Mounts a tmpfs of `kilobytes` (read-only when asked) on a fresh folder.
    init(kilobytes: Int, readOnly: Bool = false) throws {
        path = NSTemporaryDirectory() + "earshot-disk-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let options = "size=\(kilobytes)k,mode=0755" + (readOnly ? ",ro" : "")
        guard try Self.mount(["-t", "tmpfs", "-o", options, "tmpfs", path]) == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw POSIXError(.EPERM)
        }
    }

    func unmount() {
        _ = try? Self.mount(["-u", path], tool: "/bin/umount")
        try? FileManager.default.removeItem(atPath: path)
    }

    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? [] }

    /// Fills the disk with a file of its own, `filler`: every later write of data fails with "No space left on
    /// device" (making a folder still works: a tmpfs folder takes no data).
    func fill() throws {
        let descriptor = open(path + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4096)
        while write(descriptor, block, block.count) > 0 {}
        guard errno == ENOSPC else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    private static func mount(_ arguments: [String], tool: String = "/bin/mount") throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = tool.hasSuffix("umount") ? [arguments[1]] : arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Render, compare and samples into a full disk or a read-only folder: a message naming the path and the
/// reason, status 1, and nothing partial left behind (what was there before stays as it was).
@Suite(.serialized, .enabled(if: SmallDisk.canMount, "mounting a tmpfs is not permitted here (needs root)"))
struct FullDiskTests {
    static let script = packageRoot + "/Scripts/announcement-spam/after-search.earshot"
    static let otherScript = packageRoot + "/Scripts/announcement-spam/before-search.earshot"

    /// 64 KiB: the WAV itself does not fit. 400 KiB: the WAV, transcript and timeline fit, the review page
    /// (which embeds the WAV) does not, so the render fails after most of its set was written.
    @Test(arguments: [64, 400])
    func aRenderIntoAFullDiskFailsNamingThePathAndLeavesOnlyWhatWasThere(kilobytes: Int) throws {
        let disk = try SmallDisk(kilobytes: kilobytes)
        defer { disk.unmount() }
        try Data("keep".utf8).write(to: URL(fileURLWithPath: disk.path + "/keep.txt"))
        let result = try EarshotBinary.run([
            "render", Self.script, "-o", disk.path + "/out.wav", "--html", disk.path + "/out.html",
        ])
        #expect(result.status == 1)
        #expect(result.error.contains("cannot write \(disk.path)/out."), "\(result.error)")
        #expect(result.error.contains(": No space left on device"))
        #expect(disk.contents == ["keep.txt"])
        #expect(FileManager.default.contents(atPath: disk.path + "/keep.txt") == Data("keep".utf8))
    }

    @Test func aComparisonIntoAFullDiskFailsAndLeavesNothing() throws {
        let disk = try SmallDisk(kilobytes: 64)
        defer { disk.unmount() }
        let result = try EarshotBinary.run(["compare", Self.otherScript, Self.script, "-o", disk.path + "/ab.wav"])
        #expect(result.status == 1)
        #expect(result.error.contains("cannot write \(disk.path)/ab.wav: No space left on device"), "\(result.error)")
        #expect(disk.contents.isEmpty)
    }

    @Test func samplesIntoAFullDiskFailNamingTheFile() throws {
        let disk = try SmallDisk(kilobytes: 64)
        defer { disk.unmount() }
        let scripts = NSTemporaryDirectory() + "earshot-disk-scripts-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: scripts) }
        try FileManager.default.createDirectory(atPath: scripts + "/Scripts/p", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.script, toPath: scripts + "/Scripts/p/after-search.earshot")
        let result = try EarshotBinary.run(["samples", "--scripts", scripts + "/Scripts", "-o", disk.path + "/S"])
        #expect(result.status == 1)
        #expect(result.error.contains("cannot write \(disk.path)/S/p/after-search."), "\(result.error)")
        #expect(result.error.contains("No space left on device"))
        let left = FileManager.default.enumerator(atPath: disk.path)?.allObjects as? [String] ?? []
        #expect(left.filter { $0.contains(".") }.isEmpty, "files left: \(left)")
    }

    @Test func samplesIntoADeviceFailSayingItIsNotAFolder() throws {
        let folder = NSTemporaryDirectory() + "earshot-disk-device-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let full = folder + "/full"
        // A private /dev/full (1, 7): a regression can only replace this node, never the system's.
        try #require(mknod(full, mode_t(0o020_666), dev_t(1 << 8) | dev_t(7)) == 0)
        let result = try EarshotBinary.run(["samples", "--scripts", packageRoot + "/Scripts", "-o", full])
        #expect(result.status == 1)
        #expect(
            result.error.contains("cannot write samples into \(full): it is not a folder; give a folder with -o"),
            "\(result.error)")
        var info = stat()
        #expect(lstat(full, &info) == 0 && info.st_mode & 0o170_000 == 0o020_000)
    }

    /// A phrase cache on a full disk: the run goes on as it would without a cache (same output, same status), and
    /// says once on standard error that the cache cannot be written, naming its folder and why. The run's phrases
    /// are written as it ends, so the failure comes from the writes that end it, with no write after them.
    @Test(arguments: ["check", "render"])
    func aPhraseCacheOnAFullDiskIsToldOnceAndTheRunGoesOn(command: String) throws {
        let earshot = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let disk = try SmallDisk(kilobytes: 64)
        defer { disk.unmount() }
        try disk.fill()
        let output = try OutputFolder()
        defer { output.remove() }
        let words =
            command == "check" ? ["check", Self.script] : ["render", Self.script, "-o", output.path + "/out.wav"]
        let cache = disk.path + "/cache"
        let cached = try EarshotBinary.runProgram(
            earshot, words, environment: ["EARSHOT_VOICES": voicesFolder, "EARSHOT_CACHE_DIR": cache])
        let uncached = try EarshotBinary.run(words + ["--no-cache"])
        #expect(uncached.status == 0 && uncached.error.isEmpty, "\(uncached.error)")
        #expect(cached.status == uncached.status)
        #expect(cached.output == uncached.output)
        let told =
            "earshot: warning: cannot write the phrase cache in \(cache)/phrases (No space left on device); the "
            + "phrases this run did not store are synthesized again next time\n"
        #expect(cached.error == told, "\(cached.error)")
    }

    /// A render's spill file (audio beyond `EARSHOT_AUDIO_MEMORY`) in a full temporary folder: the render fails
    /// naming the folder and the system's reason, in the project's words (not a Foundation error's), and writes no
    /// WAV.
    @Test func aSpillFileOnAFullDiskFailsNamingTheFolder() throws {
        let earshot = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let disk = try SmallDisk(kilobytes: 64)
        defer { disk.unmount() }
        let output = try OutputFolder()
        defer { output.remove() }
        let script = packageRoot + "/Scripts/announcement-spam/before-order-status.earshot"
        func render(memory: String?) throws -> RunResult {
            try EarshotBinary.runProgram(
                earshot, ["render", "--no-cache", script, "-o", output.path + "/out.wav"],
                environment: ["EARSHOT_VOICES": voicesFolder, "TMPDIR": disk.path, "EARSHOT_AUDIO_MEMORY": memory])
        }
        // A first render, all in memory, leaves espeak-ng's data folder there for the next (see EspeakDataFolder).
        #expect(try render(memory: nil).status == 0)
        try FileManager.default.removeItem(atPath: output.path + "/out.wav")
        try disk.fill()
        let result = try render(memory: "16K")
        #expect(result.status == 1)
        #expect(
            result.error == "earshot: error: cannot write the spill file in \(disk.path): No space left on device\n",
            "\(result.error)")
        #expect(!output.contents.contains { $0.hasSuffix(".wav") }, "\(output.contents)")
    }

    /// `bench` with its scratch folder on a full disk: its children's messages are lost with it, so it says what
    /// stopped it (not an empty reason), removes its scratch folder and fails.
    @Test func aBenchWhoseScratchFolderIsFullSaysSo() throws {
        let earshot = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let disk = try SmallDisk(kilobytes: 64)
        defer { disk.unmount() }
        try disk.fill()
        let script = packageRoot + "/Scripts/announcement-spam/after-cart.earshot"
        let result = try EarshotBinary.runProgram(
            earshot, ["bench", script, "--stopwatch", "0", "--rounds", "1"],
            environment: ["EARSHOT_VOICES": voicesFolder, "TMPDIR": disk.path])
        #expect(result.status == 1)
        let lines = result.error.split(separator: "\n").filter { !$0.hasPrefix("bench: ") }
        #expect(lines.count == 1, "\(result.error)")
        let said = lines.first.map(String.init) ?? ""
        let scratch = "earshot: error: cannot write the benchmark's scratch folder \(disk.path)/earshot-bench-"
        #expect(said.hasPrefix(scratch), "\(said)")
        #expect(said.hasSuffix(": No space left on device"), "\(said)")
        #expect(disk.contents == ["filler"])
    }

    /// `samples` with a full or read-only temporary folder: the render that fails there (espeak-ng's data folder
    /// goes there) says why, and `samples` passes that on rather than losing it (it once read the render's messages
    /// back from a file in that same folder).
    @Test(arguments: [false, true])
    func samplesWithAnUnwritableTemporaryFolderSayWhy(readOnly: Bool) throws {
        let earshot = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let disk = try SmallDisk(kilobytes: 64, readOnly: readOnly)
        defer { disk.unmount() }
        if !readOnly { try disk.fill() }
        let output = try OutputFolder()
        defer { output.remove() }
        let scripts = output.path + "/Scripts/p"
        try FileManager.default.createDirectory(atPath: scripts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.script, toPath: scripts + "/after-search.earshot")
        let result = try EarshotBinary.runProgram(
            earshot, ["samples", "--no-cache", "--scripts", output.path + "/Scripts", "-o", output.path + "/S"],
            environment: ["EARSHOT_VOICES": voicesFolder, "TMPDIR": disk.path])
        #expect(result.status == 1)
        #expect(result.error.contains("cannot prepare the espeak-ng data folder \(disk.path)/"), "\(result.error)")
        let reason = readOnly ? "Read-only file system" : "No space left on device"
        #expect(result.error.contains(reason), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: output.path + "/S"))
    }

    /// `samples` of several long scripts takes the temporary space of its largest one, not of all of them: each
    /// render's spilled audio is let go when it is done. Three five-minute stopwatches (different phrases), 1 MB of
    /// audio kept in memory, one job, a 16 MB temporary folder: each render's spill fits, the three together (more
    /// than 24 MB, as a library shared by the renders kept them) do not.
    @Test func samplesOfLongScriptsNeedTheTemporarySpaceOfOne() throws {
        let earshot = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let disk = try SmallDisk(kilobytes: 16 * 1024)
        defer { disk.unmount() }
        let output = try OutputFolder()
        defer { output.remove() }
        let scripts = output.path + "/Scripts/stopwatch"
        try FileManager.default.createDirectory(atPath: scripts, withIntermediateDirectories: true)
        for lap in 1...3 {
            try ScalingWorkload.stopwatch(seconds: 300)
                .replacingOccurrences(of: "label \"{clock}\"", with: "label \"Lap \(lap) {clock}\"")
                .write(toFile: scripts + "/lap-\(lap).earshot", atomically: true, encoding: .utf8)
        }
        let result = try EarshotBinary.runProgram(
            earshot, ["samples", "--no-cache", "--jobs", "1", "--scripts", output.path + "/Scripts"],
            environment: ["EARSHOT_VOICES": voicesFolder, "TMPDIR": disk.path, "EARSHOT_AUDIO_MEMORY": "1M"])
        #expect(result.status == 0, "\(result.error)")
        #expect(FileManager.default.fileExists(atPath: output.path + "/Samples/stopwatch/lap-3.wav"))
    }

    /// `samples` whose renders cannot write the phrase cache (a full disk): the set is written, and the warning is
    /// said once, not once per render (nor lost, as it once was when the renders were child processes).
    @Test func samplesPassOnTheirRendersWarningOnce() throws {
        let earshot = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let disk = try SmallDisk(kilobytes: 64)
        defer { disk.unmount() }
        try disk.fill()
        let output = try OutputFolder()
        defer { output.remove() }
        for name in ["after-search", "before-search"] {
            let scripts = output.path + "/Scripts/" + name
            try FileManager.default.createDirectory(atPath: scripts, withIntermediateDirectories: true)
            let original = packageRoot + "/Scripts/announcement-spam/\(name).earshot"
            try FileManager.default.copyItem(atPath: original, toPath: scripts + "/\(name).earshot")
        }
        let result = try EarshotBinary.runProgram(
            earshot, ["samples", "--scripts", output.path + "/Scripts", "-o", output.path + "/S"],
            environment: ["EARSHOT_VOICES": voicesFolder, "EARSHOT_CACHE_DIR": disk.path + "/cache"])
        #expect(result.status == 0, "\(result.error)")
        let told =
            "earshot: warning: cannot write the phrase cache in \(disk.path)/cache/phrases (No space left on device); "
            + "the phrases this run did not store are synthesized again next time\n"
        #expect(result.error == told, "\(result.error)")
        #expect(FileManager.default.fileExists(atPath: output.path + "/S/before-search/before-search.wav"))
    }

    @Test(arguments: ["render", "compare", "samples"])
    func writingIntoAReadOnlyFolderFailsNamingThePath(command: String) throws {
        let disk = try SmallDisk(kilobytes: 64, readOnly: true)
        defer { disk.unmount() }
        let words: [String] =
            switch command {
            case "render": ["render", Self.script, "-o", disk.path + "/out.wav"]
            case "compare": ["compare", Self.otherScript, Self.script, "-o", disk.path + "/out.wav"]
            default: ["samples", "--scripts", packageRoot + "/Scripts", "-o", disk.path]
            }
        let result = try EarshotBinary.run(words)
        #expect(result.status == 1)
        #expect(result.error.contains(disk.path), "\(result.error)")
        #expect(result.error.contains(": Read-only file system"), "\(result.error)")
        #expect(!result.error.contains("NSCocoaErrorDomain"), "\(result.error)")
        #expect(disk.contents.isEmpty)
    }
}
