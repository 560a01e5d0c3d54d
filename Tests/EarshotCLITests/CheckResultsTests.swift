@testable import EarshotCLI
@testable import EarshotSystem
import Foundation
import Testing

/// `check` remembers whole runs: an identical check replays the run's output, files and status byte for byte,
/// and any change to what the run depends on runs it again.
@Suite struct CheckResultsTests {
    /// A script, a voices folder and a cache of the test's own, so each may be changed.
    struct Setup {
        let folder: OutputFolder
        var scripts: String { folder.path + "/scripts" }
        var script: String { scripts + "/after.earshot" }
        var voices: String { folder.path + "/Voices" }
        var cache: String { folder.path + "/cache" }
        var results: String { cache + "/" + ResultStore.folderName }

        init() throws {
            folder = try OutputFolder()
            let manager = FileManager.default
            try manager.createDirectory(atPath: scripts, withIntermediateDirectories: true)
            for name in ["before", "after"] {
                try manager.copyItem(
                    atPath: packageRoot + "/Scripts/updates-frequently/\(name).earshot",
                    toPath: scripts + "/\(name).earshot")
            }
            try manager.copyItem(atPath: voicesFolder, toPath: voices)
        }

        /// `earshot check --voices VOICES ARGUMENTS...` in-process, with `EARSHOT_TEST_MARK=1` in the environment
        /// unless `environment` says otherwise.
        func check(_ arguments: [String], environment: [String: String] = [:]) -> (
            status: Int32, output: String, error: String
        ) {
            let (captured, context) = PhraseCacheCLITests.context(
                cache: cache, environment.merging(["EARSHOT_TEST_MARK": "1"]) { mine, _ in mine })
            let status = Earshot.run(["check", "--voices", voices] + arguments, context: context)
            return (status, captured.output, captured.error)
        }

        /// The remembered runs' files.
        var remembered: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: results)) ?? []).filter { $0.hasSuffix(".result") }
        }

        /// Replaces every remembered run with one that prints `FORGED` and passes, under the same key: a check
        /// that prints it was replayed, not run.
        func forge() throws {
            let store = ResultStore(cacheFolder: cache)
            let recording = CheckResults.Recording(keeping: true)
            recording.context(wrapping: CapturedContext().context).writeOutput("FORGED\n")
            let payload = try #require(recording.payload(exitCode: 0))
            for name in remembered {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: results + "/" + name)))
                let start = ResultStore.header.count
                let count = bytes[start..<(start + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
                let key = String(decoding: bytes[(start + 8)..<(start + 8 + count)], as: UTF8.self)
                #expect(store.store(payload, key: key))
            }
        }
    }

    @Test func anIdenticalCheckReplaysItsOutputFilesAndStatus() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let out = setup.folder.path + "/out"
        // `--expect-variants` on the after script alone with a before's header: a problem line on standard error.
        let mislabelled = setup.scripts + "/mislabelled.earshot"
        try String(contentsOfFile: setup.script, encoding: .utf8)
            .replacingOccurrences(of: "variant  after", with: "variant  before")
            .write(toFile: mislabelled, atomically: true, encoding: .utf8)
        let arguments = [
            "--expect-variants", "--junit", out + "/results.xml", "--sarif", out + "/findings.sarif", "--jsonl",
            out + "/timelines", "--transcript", setup.scripts,
        ]
        var runs: [(status: Int32, output: String, error: String, files: [String: Data])] = []
        for _ in 0..<2 {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let run = setup.check(arguments)
            var files: [String: Data] = [:]
            for name in FileManager.default.enumerator(atPath: out)?.allObjects as? [String] ?? [] {
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: out + "/" + name, isDirectory: &isDirectory)
                if !isDirectory.boolValue { files[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)) }
            }
            runs.append((run.status, run.output, run.error, files))
            try FileManager.default.removeItem(atPath: out)
            #expect(setup.remembered.count == 1, "\(run.error)")
        }
        #expect(runs[0].status == 1)
        #expect(runs[0].error.contains("mislabelled.earshot: a before script must fail at least one check"))
        #expect(
            runs[0].files.keys.sorted() == [
                "findings.sarif", "results.xml", "timelines/scripts-after.jsonl", "timelines/scripts-before.jsonl",
                "timelines/scripts-mislabelled.jsonl",
            ])
        #expect(runs[1].status == runs[0].status)
        #expect(runs[1].output == runs[0].output)
        #expect(runs[1].error == runs[0].error)
        #expect(runs[1].files == runs[0].files)
        // And it was a replay: a forged run under the same key is what the next check says.
        try setup.forge()
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let forged = setup.check(arguments)
        #expect(forged.output == "FORGED\n" && forged.status == 0, "\(forged.output)")
    }

    /// What is changed before the next check, and whether the remembered run may still answer it.
    static let changes: [(name: String, replays: Bool)] = [
        ("nothing", true), ("script", false), ("transcript", false), ("voice", false), ("variants", false),
        ("option", false), ("environment", false), ("engine version", false), ("stamp removed", false),
        ("linked folder", false),
        ("damaged", false),
    ]

    @Test(arguments: changes)
    func aRememberedRunAnswersOnlyTheSameInputs(change: String, replays: Bool) throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        // A folder linked into the Voices folder from elsewhere: its files count as the folder's own.
        let elsewhere = setup.folder.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try "first\n".write(toFile: elsewhere + "/notes.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: setup.voices + "/linked", withDestinationPath: elsewhere)
        let first = setup.check([setup.script])
        #expect(first.status == 0, "\(first.output)\(first.error)")
        #expect(setup.remembered.count == 1)
        try setup.forge()
        var arguments = [setup.script]
        var environment: [String: String] = [:]
        let manager = FileManager.default
        func append(_ text: String, to path: String) throws {
            let handle = try #require(FileHandle(forWritingAtPath: path))
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            handle.closeFile()
        }
        switch change {
        case "script": try append("# edited\n", to: setup.script)
        case "transcript":
            try "not the timeline\n".write(
                toFile: setup.scripts + "/after.transcript", atomically: true, encoding: .utf8)
        case "voice": try append("# edited\n", to: setup.voices + "/default.voice")
        case "variants":
            try "notes\n".write(
                toFile: setup.voices + "/variants/notes.txt", atomically: true, encoding: .utf8)
        case "linked folder": try append("second\n", to: elsewhere + "/notes.txt")
        case "option": arguments.insert("--quiet", at: 0)
        case "environment": environment["EARSHOT_TEST_MARK"] = "2"
        case "engine version", "stamp removed":
            let phrases = setup.cache + "/phrases"
            let stamp = try #require(try manager.contentsOfDirectory(atPath: phrases).first { $0.hasSuffix(".stamp") })
            if change == "stamp removed" {
                try manager.removeItem(atPath: phrases + "/" + stamp)
            } else {
                let text = try String(contentsOfFile: phrases + "/" + stamp, encoding: .utf8)
                let lines = text.split(separator: "\n").dropLast().map(String.init) + ["version 0.0-not-this-one", ""]
                try lines.joined(separator: "\n").write(
                    toFile: phrases + "/" + stamp, atomically: true, encoding: .utf8)
            }
        case "damaged":
            for name in setup.remembered {
                let path = setup.results + "/" + name
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                try data.dropLast(1).write(to: URL(fileURLWithPath: path))
            }
        default: break
        }
        let next = setup.check(arguments, environment: environment)
        if replays {
            #expect(next.output == "FORGED\n", "the same check was run again: \(next.output)")
        } else {
            #expect(!next.output.contains("FORGED"), "replayed after a change of \(change)")
            #expect(next.output.contains("checks pass"), "\(next.output)\(next.error)")
            #expect(next.status == (change == "transcript" ? 1 : 0), "\(next.output)\(next.error)")
        }
    }

    @Test(arguments: ["--rerun", "--no-cache", "--record", "--update"])
    func aCheckThatMustRunIsNeverRemembered(flag: String) throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        // A first check writes the engine stamp, without which nothing is remembered anyway.
        #expect(setup.check([setup.script]).status == 0)
        #expect(setup.remembered.count == 1)
        try FileManager.default.removeItem(atPath: setup.results)
        for _ in 0..<2 {
            let run = setup.check([flag, setup.script])
            #expect(run.status == 0, "\(run.output)\(run.error)")
        }
        #expect(setup.remembered.isEmpty, "\(flag): a run was remembered")
    }

    /// A run whose last phrase-cache writes fail warns as they finish, so it is not remembered: the next identical
    /// check runs again and warns again, rather than replaying the run without its warning.
    @Test func aRunWhoseLastCacheWritesFailIsNotRemembered() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        // Timing packs go in phrases/packs: a file there fails them on the writer thread, as the run ends.
        try FileManager.default.createDirectory(atPath: setup.cache + "/phrases", withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: setup.cache + "/phrases/packs"))
        for _ in 0..<2 {
            let run = setup.check([setup.script])
            #expect(run.status == 0, "\(run.output)\(run.error)")
            let told = "earshot: warning: cannot write the phrase cache in \(setup.cache)/phrases (Not a directory)"
            #expect(run.error.hasPrefix(told), "\(run.error)")
        }
        #expect(setup.remembered.isEmpty)
    }

    /// A `--jsonl` folder that cannot be made (a file of that name in the way) fails the run naming it, in a run and
    /// in a replayed one alike, and leaves the file as it was.
    @Test func aTimelineFolderBlockedByAFileFailsNamingIt() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let timelines = setup.folder.path + "/timelines"
        let blocked = "earshot: error: cannot create the folder \(timelines): a file of that name is in the way\n"
        for replayed in [false, true] {
            if replayed {
                // A run that made the folder is remembered; then a file takes the folder's place.
                #expect(setup.check(["--jsonl", timelines, setup.script]).status == 0)
                #expect(setup.remembered.count == 1)
                try FileManager.default.removeItem(atPath: timelines)
            }
            try Data("mine".utf8).write(to: URL(fileURLWithPath: timelines))
            let run = setup.check(["--jsonl", timelines, setup.script])
            #expect(run.status == 1)
            #expect(run.error == blocked, "replayed: \(replayed)")
            #expect(FileManager.default.contents(atPath: timelines) == Data("mine".utf8))
            try FileManager.default.removeItem(atPath: timelines)
        }
    }

    @Test func aCacheBoundOfNothingRemembersNoRun() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        for size in ["0", "0", "1M"] {
            let run = setup.check([setup.script], environment: [CacheOptions.sizeVariable: size])
            #expect(run.status == 0, "\(run.output)\(run.error)")
            #expect(setup.remembered.count == (size == "0" ? 0 : 1), "EARSHOT_CACHE_SIZE=\(size)")
        }
    }

    /// Two `earshot` processes remembering the same run at once leave one whole result, which the next replays.
    @Test func twoProcessesRememberingOneRunLeaveOneWholeResult() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let binary = try #require(EarshotBinary.path)
        let arguments = ["check", "--voices", setup.voices, setup.scripts]
        func start() throws -> (process: Process, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: setup.folder.path)
            var environment = ProcessInfo.processInfo.environment
            environment[CacheOptions.folderVariable] = setup.cache
            process.environment = environment
            let output = setup.folder.path + "/out-" + UUID().uuidString
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, output)
        }
        // The first run writes the engine stamp; its result is then forgotten, so the next two both store one.
        let first = try start()
        first.process.waitUntilExit()
        try FileManager.default.removeItem(atPath: setup.results)
        let pair = try (0..<2).map { _ in try start() }
        for run in pair { run.process.waitUntilExit() }
        let outputs = try ([first] + pair).map { try String(contentsOfFile: $0.output, encoding: .utf8) }
        #expect(outputs.allSatisfy { $0 == outputs[0] && $0.contains("checks pass") })
        #expect(setup.remembered.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.results).count == 1, "a temporary was left")
        try setup.forge()
        let replayed = try start()
        replayed.process.waitUntilExit()
        #expect(try String(contentsOfFile: replayed.output, encoding: .utf8) == "FORGED\n")
    }

    @Test func twoCommandLinesNeverShareAKey() throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let (_, context) = PhraseCacheCLITests.context(cache: setup.cache)
        // A value that reads like the next field: `--voice` given twice, the second time "flag quiet", against
        // `--voice v --quiet`.
        let lines = [
            ParsedArguments(
                command: "check", options: ["voice": ["v", "flag quiet"]], arguments: ["path": [setup.script]]),
            ParsedArguments(
                command: "check", options: ["voice": ["v"]], flags: ["quiet"], arguments: ["path": [setup.script]]),
        ]
        let keys = lines.map { CheckResults.key($0, paths: [setup.script], context: context)?.inputs }
        #expect(keys[0] != nil && keys[0] != keys[1])
    }

    @Test func aRunIsRememberedOnlyWhenTheInputsAfterItAreThoseBefore() {
        typealias Key = CheckResults.Key
        let before = Key(engine: "engine 1", inputs: "scripts 1")
        #expect(Key(engine: "engine 1", inputs: "scripts 1").follows(before))
        #expect(!Key(engine: "engine 1", inputs: "scripts 2").follows(before), "a script saved during the run")
        #expect(!Key(engine: "engine 2", inputs: "scripts 1").follows(before), "another engine after the run")
        #expect(!Key(engine: nil, inputs: "scripts 1").follows(before), "no engine stamp after the run")
        // A cold run writes the stamp itself: remembered under the stamp it wrote.
        #expect(Key(engine: "engine 1", inputs: "scripts 1").follows(Key(engine: nil, inputs: "scripts 1")))
        #expect(Key(engine: nil, inputs: "x").text == nil)
        #expect(Key(engine: "e", inputs: "x").text != Key(engine: "f", inputs: "x").text)
    }

    @Test func aRunThatWarnedIsNotRememberedAndOthersAre() throws {
        for warning in [true, false] {
            let recording = CheckResults.Recording(keeping: true)
            let context = recording.context(wrapping: CapturedContext().context)
            context.writeOutput("report\n")
            context.writeError(warning ? "earshot: warning: cannot write the phrase cache\n" : "a.earshot: problem\n")
            #expect((recording.payload(exitCode: 1) == nil) == warning)
        }
    }

    @Test func aPayloadIsReplayedInOrderAndAMalformedOneIsNot() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let recording = CheckResults.Recording(keeping: true)
        let context = recording.context(wrapping: CapturedContext().context)
        context.writeOutput("one\n")
        context.writeError("two\n")
        try recording.createFolder(folder.path + "/made")
        try recording.write("file\n", to: folder.path + "/made/file.txt")
        context.writeOutput("three\n")
        let payload = try #require(recording.payload(exitCode: 3))
        try FileManager.default.removeItem(atPath: folder.path + "/made")
        let captured = CapturedContext()
        #expect(try CheckResults.replay(payload, context: captured.context) == 3)
        #expect(captured.output == "one\nthree\n")
        #expect(captured.error == "two\n")
        #expect(try String(contentsOfFile: folder.path + "/made/file.txt", encoding: .utf8) == "file\n")
        for damaged in [payload.dropLast(1), payload + Data([0x6f]), Data(), Data([0x7a, 0, 0, 0, 0])] {
            let untouched = CapturedContext()
            #expect(try CheckResults.replay(Data(damaged), context: untouched.context) == nil)
            #expect(untouched.output.isEmpty && untouched.error.isEmpty)
        }
    }
}
