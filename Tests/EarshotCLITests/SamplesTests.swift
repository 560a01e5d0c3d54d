import EarshotAudio
import EarshotBench
import EarshotCore
import EarshotSystem
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
            let same = first == second  // a failed `==` of two large Data values would list their difference
            #expect(same, "\(script): the two .\(ext) files differ")
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

    /// A sample is what `earshot render` gives for its script when run from the folder that holds `Scripts/` (with
    /// the review page, linking the WAV), byte for byte, wherever `samples` itself runs: the script path in the
    /// outputs and the voices (found by walking up from that folder) are that folder's, not those found from the
    /// current folder or the executable.
    @Test func aSampleIsWhatRenderGivesFromTheFolderOfScripts() throws {
        let folder = try OutputFolder()
        let elsewhere = try OutputFolder()
        defer {
            folder.remove()
            elsewhere.remove()
        }
        let script = "audio-only-task/after-captions"
        try Self.writeScripts([script: try Self.shipped(script)], in: folder.path)
        // The folder's own voices, with a narrator unlike the shipped one (which the executable would find).
        try FileManager.default.copyItem(atPath: voicesFolder, toPath: folder.path + "/Voices")
        let narrator = folder.path + "/Voices/narrator.voice"
        try String(contentsOfFile: narrator, encoding: .utf8).replacingOccurrences(of: "rate 165", with: "rate 210")
            .write(toFile: narrator, atomically: true, encoding: .utf8)
        let made = try EarshotBinary.run(
            ["samples", "--scripts", folder.path + "/Scripts", "-o", folder.path + "/Samples"], in: elsewhere.path,
            withVoices: false)
        #expect(made.status == 0, "\(made.error)")
        let out = folder.path + "/rendered/after-captions"
        try FileManager.default.createDirectory(
            atPath: folder.path + "/rendered", withIntermediateDirectories: true)
        let rendered = try EarshotBinary.run(
            ["render", "Scripts/" + script + ".earshot", "-o", out + ".wav", "--html", out + ".html", "--link-audio"],
            in: folder.path, withVoices: false)
        #expect(rendered.status == 0, "\(rendered.error)")
        for ext in ["wav", "vtt", "jsonl", "html"] {
            let sample = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/Samples/" + script + "." + ext))
            let render = try Data(contentsOf: URL(fileURLWithPath: out + "." + ext))
            // Compared first: a failed `==` on two large Data values would have the test list their difference.
            let same = sample == render
            #expect(same, "the sample's .\(ext) differs from the render's")
        }
        let page = try String(contentsOfFile: out + ".html", encoding: .utf8)
        #expect(page.contains(">Scripts/" + script + ".earshot<"), "the page names the script as Scripts/…")
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
        // Run from another folder: the diagnostic still shows the script's line.
        let elsewhere = try OutputFolder()
        defer { elsewhere.remove() }
        let failed = try EarshotBinary.run(
            ["samples", "--jobs", "1", "--scripts", folder.path + "/Scripts"], in: elsewhere.path)
        #expect(failed.status != 0)
        #expect(failed.error.contains("no-such-voice"), "\(failed.error)")
        #expect(failed.error.contains("voice    no-such-voice\n"), "the script's line is shown: \(failed.error)")
        #expect(!manager.fileExists(atPath: folder.path + "/Samples"), "left: \(folder.path)/Samples")
        try text.write(toFile: second, atomically: true, encoding: .utf8)
        let made = try EarshotBinary.run(["samples", "--jobs", "1"], in: folder.path)
        #expect(made.status == 0, "\(made.error)")
        #expect(manager.fileExists(atPath: folder.path + "/Samples/b-second/two.wav"))
    }

    /// `samples` stopped by SIGTERM (as a CI job's time limit may) while it renders: the first run takes back what
    /// it wrote, and no render's temporary file is left. It waits for the event (the short script's sample is in
    /// place, so the long one renders), not for a time.
    @Test func anInterruptedFirstRunLeavesNothing() throws {
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
        // One job, so the short script renders first; the long one then takes seconds, even on a fast machine.
        process.arguments = ["samples", "--no-cache", "--jobs", "1"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        var environment = ProcessInfo.processInfo.environment
        environment["EARSHOT_VOICES"] = voicesFolder
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let short = folder.path + "/Samples/a-short/after.wav"
        let started = ContinuousClock.now
        while !manager.fileExists(atPath: short), process.isRunning, ContinuousClock.now - started < .seconds(300) {
            usleep(20_000)
        }
        #expect(manager.fileExists(atPath: short), "the short script's sample was written before the long one")
        // The folder is marked as samples' own from the start: a run killed outright leaves one the next accepts.
        #expect(manager.fileExists(atPath: folder.path + "/Samples/.earshot-samples"))
        #expect(process.isRunning, "the long script was still rendering")
        kill(process.processIdentifier, SIGTERM)
        ended.wait()
        #expect(process.terminationStatus == 143)
        #expect(!manager.fileExists(atPath: folder.path + "/Samples"), "a partial set was left")
        let left = FolderListing.files(under: folder.path, endingWith: "")
            .filter { !$0.hasPrefix("Scripts/") }
        #expect(left.isEmpty, "left behind: \(left)")
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
}
