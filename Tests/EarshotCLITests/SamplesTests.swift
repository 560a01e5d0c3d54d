import EarshotAudio
import EarshotBench
import EarshotCore
import Foundation
import Testing

/// The built `earshot` in fresh processes: renders are byte-identical, and Samples/ matches what it renders.
@Suite("Samples and deterministic renders", .serialized)
struct SamplesTests {
    @Test(arguments: [
        "Scripts/announcement-spam/before-search.earshot", "Scripts/audio-only-task/after-captions.earshot",
        "Scripts/skeleton-noise/before-voiceover.earshot",
    ])
    func aScriptRendersToTheSameBytesInTwoFreshProcesses(script: String) throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        for name in ["a", "b"] {
            let result = try EarshotBinary.run([
                "render", packageRoot + "/" + script, "-o", folder.path + "/\(name).wav",
            ])
            #expect(result.status == 0, "\(result.error)")
        }
        for ext in ["wav", "vtt", "jsonl"] {
            let first = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/a." + ext))
            let second = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/b." + ext))
            #expect(first.count > 44, "\(ext) is not empty")
            #expect(first == second, "\(script): the two .\(ext) files differ")
        }
        let wav = try WAVFile.read(path: folder.path + "/a.wav")
        #expect(wav.sampleRate == 22_050 && wav.channels == 1)
        #expect(wav.samples.contains { abs(Int($0)) > 3_000 }, "the render is audible")
    }

    @Test func samplesAreUpToDate() throws {
        let result = try EarshotBinary.run(["samples", "--check"], in: packageRoot)
        #expect(result.status == 0, "Samples/ is out of date; run `make samples`:\n\(result.output)\(result.error)")
        #expect(result.output.contains("is up to date"))
    }

    @Test func aStaleSampleIsNamed() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let scripts = folder.path + "/Scripts/updates-frequently"
        try FileManager.default.createDirectory(atPath: scripts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: packageRoot + "/Scripts/updates-frequently/before.earshot", toPath: scripts + "/before.earshot")
        let made = try EarshotBinary.run(["samples"], in: folder.path)
        #expect(made.status == 0, "\(made.error)")
        let fresh = try EarshotBinary.run(["samples", "--check"], in: folder.path)
        #expect(fresh.status == 0, "\(fresh.output)")
        try Data("WEBVTT\n".utf8).write(
            to: URL(fileURLWithPath: folder.path + "/Samples/updates-frequently/before.vtt"))
        let stale = try EarshotBinary.run(["samples", "--check"], in: folder.path)
        #expect(stale.status == 1)
        #expect(stale.output.contains("stale: ") && stale.output.contains("updates-frequently/before.vtt"))
        #expect(!stale.output.contains("before.wav"))
    }

    /// A first `samples` run that fails part way (its second script asks for a voice there is no profile of) takes
    /// back what it wrote: no partial set is left, and the next run, with the script fixed, is not refused as
    /// writing into a folder that is not its own.
    @Test func aFirstRunThatFailsLeavesNothingAndTheNextRunWrites() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let manager = FileManager.default
        let text = try Self.shipped("updates-frequently/after")
        try Self.writeScripts(
            [
                "a-first/one": try Self.shipped("updates-frequently/before"),
                "b-second/two": text.replacingOccurrences(of: "\nprofile ", with: "\nvoice    no-such-voice\nprofile "),
            ], in: folder.path)
        let second = folder.path + "/Scripts/b-second/two.earshot"
        let failed = try EarshotBinary.run(["samples", "--jobs", "1"], in: folder.path)
        #expect(failed.status != 0)
        #expect(failed.error.contains("no-such-voice"), "\(failed.error)")
        #expect(!manager.fileExists(atPath: folder.path + "/Samples"), "left: \(folder.path)/Samples")
        try text.write(toFile: second, atomically: true, encoding: .utf8)
        let made = try EarshotBinary.run(["samples", "--jobs", "1"], in: folder.path)
        #expect(made.status == 0, "\(made.error)")
        #expect(manager.fileExists(atPath: folder.path + "/Samples/b-second/two.wav"))
    }

    /// `samples` stopped by SIGTERM sent to it alone (as a CI job's time limit may): its render stops too rather
    /// than go on writing, and the first run takes back what it wrote. It waits for the event (the long render has
    /// started), not for a time.
    @Test func anInterruptedFirstRunStopsItsRenderAndLeavesNothing() throws {
        let earshot = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let folder = try OutputFolder()
        defer { folder.remove() }
        let manager = FileManager.default
        try Self.writeScripts(
            [
                "a-short/after": try Self.shipped("updates-frequently/after"),
                "b-long/stopwatch": ScalingWorkload.stopwatch(seconds: 3600),
            ], in: folder.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: earshot)
        process.arguments = ["samples", "--no-cache", "--jobs", "1"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        var environment = ProcessInfo.processInfo.environment
        environment["EARSHOT_VOICES"] = voicesFolder
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let started = ContinuousClock.now
        while Self.renders(writingInto: folder.path, of: process.processIdentifier).isEmpty, process.isRunning,
            ContinuousClock.now - started < .seconds(300)
        {
            usleep(20_000)
        }
        let running = Self.renders(writingInto: folder.path, of: process.processIdentifier)
        #expect(!running.isEmpty, "the long render was seen running")
        // The folder is marked as samples' own from the start: a run killed outright leaves one the next accepts.
        #expect(manager.fileExists(atPath: folder.path + "/Samples/.earshot-samples"))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        let left = running.filter { Self.isAlive($0) }
        #expect(left.isEmpty, "renders still running after samples ended: \(left)")
        #expect(!manager.fileExists(atPath: folder.path + "/Samples"), "a partial set was left")
    }

    /// The text of the shipped script `name` (`pattern/variant`, without `.earshot`).
    static func shipped(_ name: String) throws -> String {
        try String(contentsOfFile: packageRoot + "/Scripts/" + name + ".earshot", encoding: .utf8)
    }

    /// Writes each script (`pattern/name` → its text) as `Scripts/pattern/name.earshot` under `folder`.
    static func writeScripts(_ scripts: [String: String], in folder: String) throws {
        for (name, text) in scripts {
            let path = folder + "/Scripts/" + name + ".earshot"
            try FileManager.default.createDirectory(
                atPath: PathText.folder(of: path), withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    /// The live `earshot render` children of `parent` whose command line writes into `folder`.
    static func renders(writingInto folder: String, of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", Int32(fields[1]) == parent,
                let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
            else { return false }
            let words = String(decoding: line, as: UTF8.self)
            return words.contains("render") && words.contains(folder + "/Samples/b-long/")
        }
    }

    /// Whether process `pid` still runs (a zombie, ended and not yet reaped, does not).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }
}
