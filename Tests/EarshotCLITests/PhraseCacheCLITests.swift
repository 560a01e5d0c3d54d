@testable import EarshotCLI
import EarshotBench
import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation
import Testing

/// The phrase cache through the commands: cached runs say exactly what cold ones say, `--no-cache` and
/// `earshot cache` do what they claim, and processes can share a cache folder.
@Suite struct PhraseCacheCLITests {
    /// A context that collects output, with the package's Voices and `cache` as the cache folder.
    static func context(cache: String, _ extra: [String: String] = [:]) -> (CapturedContext, CommandContext) {
        let captured = CapturedContext()
        var context = captured.context
        context.environment[CacheOptions.folderVariable] = cache
        for (name, value) in extra { context.environment[name] = value }
        return (captured, context)
    }

    static let scripts: [String] = {
        let folder = packageRoot + "/Scripts"
        let files = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
        return files.filter { $0.hasSuffix(".earshot") }.sorted().map { folder + "/" + $0 }
    }()

    /// Every shipped script's JSON Lines timeline, run through `synthesizer` (and `timings`, when given).
    static func timelines(_ synthesizer: any Synthesizer, timings: (any TimingStore)? = nil) throws -> [String] {
        let speech = SpeechLibrary(synthesizer: synthesizer, audioCacheLimit: 0, timingStore: timings)
        return try scripts.map { path in
            let document = try ScenarioParser.parse(
                source: try String(contentsOfFile: path, encoding: .utf8), path: path)
            let run = try ScenarioRunner.run(
                document, profile: try ScenarioRunner.profile(for: document), voice: .standard, speech: speech)
            return run.timeline.jsonLines()
        }
    }

    @Test func everyShippedScriptGivesTheSameTimelineCachedAsColdAndTheWarmRunSynthesizesNothing() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        #expect(Self.scripts.count >= 24)
        let espeak = try EspeakSynthesizer.shared(voicesDirectory: voicesFolder)
        let identity = PhraseCache.Identity(
            engineVersion: espeak.engineVersion, normalizerVersion: TextNormalizer.version,
            variantsFingerprint: espeak.variantsFingerprint, sampleRate: espeak.sampleRate)
        let uncached = try Self.timelines(espeak)
        let cold = PhraseCache(base: espeak, identity: identity, folder: folder.path + "/phrases", warn: { _ in })
        let first = try Self.timelines(cold)
        let warm = PhraseCache(base: espeak, identity: identity, folder: folder.path + "/phrases", warn: { _ in })
        let second = try Self.timelines(warm)
        #expect(cold.statistics.syntheses > 0 && cold.statistics.stores == cold.statistics.syntheses)
        #expect(warm.statistics.syntheses == 0, "the warm run synthesized \(warm.statistics.syntheses) phrases")
        #expect(warm.statistics.hits > 0)
        for (index, script) in Self.scripts.enumerated() {
            #expect(first[index] == uncached[index], "\(script): cold cached run differs from an uncached one")
            #expect(second[index] == uncached[index], "\(script): warm run differs from an uncached one")
        }
    }

    /// `check`'s way: only timings are written, and a warm run takes them as they are, synthesizing nothing.
    @Test func storedTimingsAloneGiveEveryShippedScriptsTimelineAndTheWarmRunSynthesizesNothing() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let espeak = try EspeakSynthesizer.shared(voicesDirectory: voicesFolder)
        let identity = PhraseCache.Identity(
            engineVersion: espeak.engineVersion, normalizerVersion: TextNormalizer.version,
            variantsFingerprint: espeak.variantsFingerprint, sampleRate: espeak.sampleRate)
        let phrases = folder.path + "/phrases"
        let uncached = try Self.timelines(espeak)
        let cold = PhraseCache(base: espeak, identity: identity, folder: phrases, storesAudio: false, warn: { _ in })
        let first = try Self.timelines(cold, timings: cold)
        let warm = PhraseCache(base: espeak, identity: identity, folder: phrases, storesAudio: false, warn: { _ in })
        let second = try Self.timelines(warm, timings: warm)
        let names = try FileManager.default.contentsOfDirectory(atPath: phrases)
        let kinds = try names.map { name -> String in
            let data = try Data(contentsOf: URL(fileURLWithPath: phrases + "/" + name))
            return String(decoding: data.prefix(4), as: UTF8.self)
        }
        #expect(!names.isEmpty && kinds.allSatisfy { $0 == "ETIM" }, "entries other than timings: \(Set(kinds))")
        #expect(cold.statistics.syntheses > 0 && cold.statistics.stores > 0)
        #expect(warm.statistics.syntheses == 0, "the warm run synthesized \(warm.statistics.syntheses) phrases")
        #expect(warm.statistics.hits > 0 && warm.statistics.stores == 0)
        for (index, script) in Self.scripts.enumerated() {
            #expect(first[index] == uncached[index], "\(script): cold run with stored timings differs")
            #expect(second[index] == uncached[index], "\(script): warm run from stored timings differs")
        }
    }

    /// A render after a check (whose cache holds timings only) synthesizes its audio and says what it says
    /// uncached.
    @Test(arguments: ["announcement-spam/before-search.earshot", "audio-only-task/before-captions.earshot"])
    func aRenderAfterACheckIsTheUncachedRender(script: String) throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let cache = folder.path + "/cache"
        let path = packageRoot + "/Scripts/" + script
        let (checked, checkContext) = Self.context(cache: cache)
        let checkStatus = Earshot.run(["check", path], context: checkContext)
        #expect(checkStatus == 0 || checkStatus == 1, "\(checked.error)")
        var outputs: [String: [String: Data]] = [:]
        for name in ["uncached", "after-check"] {
            let (captured, context) = Self.context(cache: cache)
            let words =
                ["render", path, "-o", folder.path + "/\(name).wav"] + (name == "uncached" ? ["--no-cache"] : [])
            #expect(Earshot.run(words, context: context) == 0, "\(captured.error)")
            var files: [String: Data] = [:]
            for ext in ["wav", "vtt", "jsonl"] {
                files[ext] = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/\(name).\(ext)"))
            }
            outputs[name] = files
        }
        for ext in ["wav", "vtt", "jsonl"] {
            #expect(outputs["after-check"]?[ext] == outputs["uncached"]?[ext], "\(script): .\(ext) differs")
        }
    }

    @Test func aRenderFromTheCacheIsByteIdenticalToAColdOne() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let cache = folder.path + "/cache"
        let script = packageRoot + "/Scripts/announcement-spam/before-search.earshot"
        var outputs: [String: [String: Data]] = [:]
        for name in ["uncached", "cold", "warm"] {
            let (captured, context) = Self.context(cache: cache)
            let words =
                ["render", script, "-o", folder.path + "/\(name).wav"] + (name == "uncached" ? ["--no-cache"] : [])
            let status = Earshot.run(words, context: context)
            #expect(status == 0, "\(captured.error)")
            var files: [String: Data] = [:]
            for ext in ["wav", "vtt", "jsonl"] {
                files[ext] = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/\(name).\(ext)"))
            }
            outputs[name] = files
            if name == "uncached" {
                #expect(!FileManager.default.fileExists(atPath: cache), "--no-cache wrote the cache folder")
            }
        }
        #expect(PhraseCache.Folder(path: cache + "/phrases").usage().files > 0)
        for ext in ["wav", "vtt", "jsonl"] {
            #expect(outputs["cold"]?[ext] == outputs["uncached"]?[ext], "cold .\(ext) differs")
            #expect(outputs["warm"]?[ext] == outputs["uncached"]?[ext], "warm .\(ext) differs")
        }
    }

    @Test(arguments: [true, false])
    func checkWritesTheCacheUnlessToldNotTo(noCache: Bool) throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let cache = folder.path + "/cache"
        let (captured, context) = Self.context(cache: cache)
        let script = packageRoot + "/Scripts/updates-frequently/after.earshot"
        let status = Earshot.run(["check", script] + (noCache ? ["--no-cache"] : []), context: context)
        #expect(status == 0, "\(captured.output)\(captured.error)")
        let files = PhraseCache.Folder(path: cache + "/phrases").usage().files
        if noCache {
            #expect(!FileManager.default.fileExists(atPath: cache), "--no-cache created \(cache)")
        } else {
            #expect(files > 0)
        }
    }

    @Test func cacheShowsItsFolderAndClearEmptiesOnlyWhatItOwns() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let cache = folder.path + "/cache"
        let (_, context) = Self.context(cache: cache)
        #expect(
            Earshot.run(["check", packageRoot + "/Scripts/updates-frequently/after.earshot"], context: context) == 0)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: cache + "/phrases/keep.txt"))
        let (shown, showContext) = Self.context(cache: cache)
        #expect(Earshot.run(["cache"], context: showContext) == 0)
        let count = PhraseCache.Folder(path: cache + "/phrases").usage().files
        #expect(count > 0)
        #expect(shown.output.contains("folder:  \(cache)/phrases"))
        #expect(shown.output.contains("entries: \(count)\n"))
        let (cleared, clearContext) = Self.context(cache: cache)
        #expect(Earshot.run(["cache", "clear"], context: clearContext) == 0)
        #expect(cleared.output.hasPrefix("removed \(count) cached phrases"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache + "/phrases") == ["keep.txt"])
    }

    @Test(arguments: [
        (["cache", "empty"], "unknown action 'empty'"),
        (["cache"], "EARSHOT_CACHE_SIZE=lots is not a size"),
    ])
    func badCacheWordsAreUsageErrors(words: [String], message: String) throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let (captured, context) = Self.context(
            cache: folder.path, message.hasPrefix("EARSHOT") ? [CacheOptions.sizeVariable: "lots"] : [:])
        #expect(Earshot.run(words, context: context) == ExitCode.usage)
        #expect(captured.error.contains(message), "\(captured.error)")
    }

    @Test(arguments: [("512M", 512 << 20), ("2G", 2 << 30), ("100k", 100 << 10), ("12345", 12345), ("", 512 << 20)])
    func cacheSizesReadWithTheirUnits(text: String, bytes: Int) throws {
        #expect(try CacheOptions.limit(environment: [CacheOptions.sizeVariable: text]) == bytes)
    }

    @Test(arguments: [
        ([CacheOptions.folderVariable: "/x/c", "XDG_CACHE_HOME": "/x/xdg", "HOME": "/x/home"], "/x/c"),
        (["XDG_CACHE_HOME": "/x/xdg", "HOME": "/x/home"], "/x/xdg/earshot"),
        (["XDG_CACHE_HOME": "relative", "HOME": "/x/home"], "/x/home/.cache/earshot"),
        (["HOME": "/x/home"], "/x/home/.cache/earshot"),
    ])
    func theCacheFolderFollowsTheXDGRules(environment: [String: String], folder: String) {
        #expect(CacheOptions.folder(environment: environment) == folder)
    }

    /// A relative `EARSHOT_CACHE_DIR` is a folder under the current one: the run fills it, without a warning, and
    /// `earshot cache` shows it as a whole path. (It was once made at the root of the file system.)
    @Test func aRelativeCacheFolderIsTakenFromTheCurrentFolder() throws {
        let earshot = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
        let folder = try OutputFolder()
        defer { folder.remove() }
        let name = "earshot-relative-cache-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: "/" + name) }
        let environment = [CacheOptions.folderVariable: name, "EARSHOT_VOICES": voicesFolder]
        let script = packageRoot + "/Scripts/updates-frequently/after.earshot"
        let run = try EarshotBinary.runProgram(earshot, ["check", script], in: folder.path, environment: environment)
        #expect(run.status == 0 && run.error.isEmpty, "\(run.error)")
        #expect(PhraseCache.Folder(path: folder.path + "/" + name + "/phrases").usage().files > 0)
        #expect(!FileManager.default.fileExists(atPath: "/" + name))
        let shown = try EarshotBinary.runProgram(earshot, ["cache"], in: folder.path, environment: environment)
        #expect(shown.output.contains("folder:  \(folder.path)/\(name)/phrases\n"), "\(shown.output)")
    }

    /// `earshot render` processes of a scenario whose audio is larger than the cache's bound: each says so once,
    /// the cache keeps the start of the first run, later runs leave that start behind (they found it, and evicted
    /// what they stored beyond the bound), and every run writes what an uncached render writes.
    @Test func rendersLongerThanTheCacheBoundKeepTheFirstRunsStartAndSaySo() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let cache = folder.path + "/cache"
        let script = folder.path + "/stopwatch.earshot"
        try ScalingWorkload.stopwatch(seconds: 90).write(toFile: script, atomically: true, encoding: .utf8)
        let binary = try #require(EarshotBinary.path)
        var outputs: [String: [Data]] = [:]
        var packs: [String: [String]] = [:]
        for name in ["cold", "warm", "again", "uncached"] {
            let wav = folder.path + "/\(name).wav"
            let run = try EarshotBinary.runProgram(
                binary, ["render", script, "-o", wav] + (name == "uncached" ? ["--no-cache"] : []),
                environment: [
                    "EARSHOT_VOICES": voicesFolder, CacheOptions.folderVariable: cache,
                    CacheOptions.sizeVariable: "1M",
                ])
            #expect(run.status == 0, "\(name): \(run.error)")
            let notes = run.error.components(separatedBy: "holds only the start of this run's audio").count - 1
            #expect(notes == (name == "uncached" ? 0 : 1), "\(name): \(run.error)")
            if name != "uncached" { #expect(run.error.contains("(1.0 MB)"), "\(run.error)") }
            outputs[name] = try ["wav", "vtt", "jsonl"].map {
                try Data(contentsOf: URL(fileURLWithPath: folder.path + "/\(name).\($0)"))
            }
            packs[name] = try FileManager.default.contentsOfDirectory(atPath: cache + "/phrases/packs")
                .filter { $0.hasSuffix(".audio") }.sorted()
            #expect(PhraseCache.Folder(path: cache + "/phrases").usage().bytes <= 1 << 20)
        }
        let cold = packs["cold"] ?? []
        #expect(cold.count >= 2, "\(cold)")
        // Of the cold run's packs, each later run keeps all but perhaps the last (the bound keeps nine tenths); of
        // its own, it evicts the newest first, so what it keeps of them depends on how many it closed (a pack also
        // closes after two seconds open, so a run slowed down by a busy machine closes more).
        for name in ["warm", "again"] {
            let later = packs[name] ?? []
            #expect(later.first == cold.first, "the start stays: \(cold) then \(name) \(later)")
            #expect(Set(cold.dropLast()).isSubset(of: Set(later)), "\(cold) then \(name) \(later)")
        }
        for name in ["cold", "warm", "again"] { #expect(outputs[name] == outputs["uncached"], "\(name)") }
    }

    @Test func twoProcessesFillingOneCacheLeaveOnlyWholeEntries() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let cache = folder.path + "/cache"
        let binary = try #require(EarshotBinary.path)
        let processes = try (0..<2).map { _ -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["check", "--quiet", "--jobs", "2", packageRoot + "/Scripts"]
            var environment = ProcessInfo.processInfo.environment
            environment["EARSHOT_VOICES"] = voicesFolder
            environment[CacheOptions.folderVariable] = cache
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes { process.waitUntilExit() }
        // Before scripts fail their checks by design: status 1, not a crash.
        #expect(processes.allSatisfy { $0.terminationReason == .exit && $0.terminationStatus == 1 })
        let store = PhraseCache.Folder(path: cache + "/phrases")
        #expect(store.usage().files > 50)
        #expect(store.damagedEntries().isEmpty)
        #expect(store.temporaryFiles().isEmpty)
    }
}

/// `--jobs`: scripts run side by side, reported byte for byte as one at a time.
@Suite struct ParallelRunsTests {
    /// In `earshot` processes, so the runs' memory is not this test process's (other suites measure theirs).
    @Test func aFolderCheckSaysTheSameWithOneJobAndWithTwo() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        var results: [String: [String: Data]] = [:]
        for jobs in ["1", "2"] {
            let out = folder.path + "/j" + jobs
            let words = [
                "check", "--no-cache", "--jobs", jobs, "--format", "json", "--junit", out + ".xml", "--sarif",
                out + ".sarif", "--jsonl", out, packageRoot + "/Scripts",
            ]
            let json = try EarshotBinary.run(words, in: folder.path)  // one working folder: SARIF names it
            #expect(json.status == 1, "\(json.error)")
            let text = try EarshotBinary.run(
                ["check", "--no-cache", "--jobs", jobs, packageRoot + "/Scripts"], in: folder.path)
            #expect(text.status == 1 && !text.output.isEmpty, "\(text.error)")
            var files = [
                "json": Data(json.output.utf8), "json-stderr": Data(json.error.utf8), "text": Data(text.output.utf8),
                "text-stderr": Data(text.error.utf8),
            ]
            for ext in ["xml", "sarif"] { files[ext] = try Data(contentsOf: URL(fileURLWithPath: out + "." + ext)) }
            for name in try FileManager.default.contentsOfDirectory(atPath: out) {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
            }
            results[jobs] = files
        }
        let one = try #require(results["1"])
        let two = try #require(results["2"])
        #expect(one.count >= 24 + 6)
        #expect(one.keys.sorted() == two.keys.sorted())
        for (name, data) in one { #expect(two[name] == data, "\(name) differs between --jobs 1 and --jobs 2") }
    }

    @Test func resultsArriveInItemOrderAndTheFirstFailureInThatOrderIsThrown() throws {
        struct Failure: Error, Equatable { var index: Int }
        let delivered = Delivered()
        #expect(throws: Failure(index: 5)) {
            try ParallelRuns.forEach(count: 12, jobs: 3) { index in
                if index == 5 || index == 9 { throw Failure(index: index) }
                return index
            } deliver: { _, item in
                delivered.append(item)
            }
        }
        #expect(delivered.items == [0, 1, 2, 3, 4])
    }

    @Test func itemsStartInTheOrderGivenAndStillArriveInItemOrder() throws {
        let started = Delivered()
        let delivered = Delivered()
        let gate = NSCondition()
        var running = 0
        try ParallelRuns.forEach(count: 8, jobs: 2, startOrder: [7, 6, 5, 4, 3, 2, 1, 0]) { index in
            started.append(index)
            // Both threads hold their first item until the other has taken its own: the first two started are
            // the first two of the order, whichever thread is faster.
            gate.withLock {
                running += 1
                gate.broadcast()
                while running < 2 { gate.wait() }
            }
            return index
        } deliver: { _, item in
            delivered.append(item)
        }
        #expect(Set(started.items.prefix(2)) == [7, 6])
        #expect(started.items.sorted() == Array(0..<8))
        #expect(delivered.items == Array(0..<8))
    }

    @Test func aStartOrderThatIsNotAPermutationIsIgnored() throws {
        let delivered = Delivered()
        try ParallelRuns.forEach(count: 4, jobs: 2, startOrder: [0, 0, 1, 2]) {
            $0
        } deliver: { _, item in
            delivered.append(item)
        }
        #expect(delivered.items == [0, 1, 2, 3])
    }

    @Test func aBadJobCountIsAUsageError() {
        let captured = CapturedContext()
        #expect(Earshot.run(["check", "--jobs", "0", packageRoot + "/Scripts"], context: captured.context) == 64)
        #expect(captured.error.contains("--jobs takes a whole number of at least 1"))
    }

    @Test func samplesWritesTheSameFilesWithOneJobAndWithTwo() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let scripts = folder.path + "/Scripts/updates-frequently"
        try FileManager.default.createDirectory(atPath: scripts, withIntermediateDirectories: true)
        for name in ["before.earshot", "after.earshot"] {
            try FileManager.default.copyItem(
                atPath: packageRoot + "/Scripts/updates-frequently/" + name, toPath: scripts + "/" + name)
        }
        var made: [String: [String: Data]] = [:]
        for jobs in ["1", "2"] {
            let output = folder.path + "/Samples-" + jobs
            let result = try EarshotBinary.run(
                ["samples", "--no-cache", "--jobs", jobs, "-o", output], in: folder.path)
            #expect(result.status == 0, "\(result.error)")
            let names = FileManager.default.enumerator(atPath: output)?.allObjects as? [String] ?? []
            var files: [String: Data] = [:]
            for name in names where !name.hasSuffix("updates-frequently") {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: output + "/" + name))
            }
            made[jobs] = files
        }
        let one = try #require(made["1"])
        #expect(one.keys.contains("updates-frequently/before.wav"))
        #expect(one == made["2"])
    }
}

/// Items delivered, in order.
final class Delivered: @unchecked Sendable {
    private let lock = NSLock()
    private var delivered: [Int] = []
    var items: [Int] { lock.withLock { delivered } }
    func append(_ item: Int) { lock.withLock { delivered.append(item) } }
}

/// espeak-ng starts only when the cache cannot answer.
@Suite struct DeferredStartTests {
    static func run(_ script: String, cache: String) throws -> ScenarioInputs.Speech {
        let (_, context) = PhraseCacheCLITests.context(cache: cache)
        let arguments = ParsedArguments(command: "check", arguments: ["path": [script]])
        let speech = try ScenarioInputs.speech(arguments, context: context, keepingAudio: false)
        let document = try ScenarioInputs.parse([script])[0]
        _ = try ScenarioInputs.run(document, speech: speech, arguments: arguments)
        return speech
    }

    @Test func aRunAnsweredFromTheCacheNeverStartsEspeak() throws {
        let folder = try OutputFolder()
        // The runs' queued entries are written first: written at exit, they would make the folder again.
        defer {
            PhraseCache.finishWrites()
            folder.remove()
        }
        let script = packageRoot + "/Scripts/announcement-spam/before-search.earshot"
        let cold = try Self.run(script, cache: folder.path)
        #expect(cold.engine.hasStarted)
        let warm = try Self.run(script, cache: folder.path)
        #expect(!warm.engine.hasStarted, "a warm run started espeak-ng")
        #expect(warm.phraseCache?.statistics.hits ?? 0 > 0)
    }

    @Test func aVoiceIsRememberedAsAcceptedOnlyWithItsOwnValues() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let engine = DeferredSynthesizer(voicesDirectory: voicesFolder)
        let cache = PhraseCache(base: engine, identity: engine.identity, folder: folder.path, warn: { _ in })
        var voice = VoiceProfile.standard
        #expect(!cache.knowsValid(voice))
        cache.recordValid(voice)
        #expect(cache.knowsValid(voice))
        voice.variant = "f3"
        #expect(!cache.knowsValid(voice))
    }

    @Test func aVoiceFileWithAnUnknownVariantFailsWithAWarmCacheToo() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let voices = folder.path + "/Voices"
        try FileManager.default.createDirectory(atPath: voices, withIntermediateDirectories: true)
        // The package's variants too: espeak-ng starts once per process, with one set of variants.
        try FileManager.default.copyItem(atPath: voicesFolder + "/variants", toPath: voices + "/variants")
        try Data("espeak en-us\nvariant nosuchvariant\nrate 180\n".utf8).write(
            to: URL(fileURLWithPath: voices + "/odd.voice"))
        try Data("espeak en-us\nrate 185\n".utf8).write(to: URL(fileURLWithPath: voices + "/default.voice"))
        let script = packageRoot + "/Scripts/updates-frequently/after.earshot"
        for _ in 0..<2 {
            let (captured, context) = PhraseCacheCLITests.context(cache: folder.path + "/cache")
            let words = ["check", "--voices", voices, "--voice", "odd", script]
            #expect(Earshot.run(words, context: context) != 0)
            // Reported at the voice file's line each time: the voice was checked, not taken from the cache.
            #expect(captured.error.contains("odd.voice:2:"), "\(captured.error)")
            #expect(captured.error.contains("nosuchvariant"), "\(captured.error)")
        }
    }
}
