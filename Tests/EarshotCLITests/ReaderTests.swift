import EarshotCLI
import EarshotCore
import EarshotScript
import EarshotSystem
import Foundation
import Testing

/// The five patterns' scripts under every reader, the native SSIP lines, and the `--reader`/`--readers` options.
@Suite struct ReaderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let scripts: [String] = {
        let folder = root.appendingPathComponent("Scripts").path
        let files = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
        return files.filter { $0.hasSuffix(".earshot") }.sorted()
    }()

    static let readers: [ScreenReader] = [.talkBack, .nvda, .speechDispatcher]

    /// The checks whose verdict under a reader differs from VoiceOver's: script, check, reader, passes.
    static let differences: [String: [ScreenReader: Bool]] = [
        // TalkBack skips a repeat of speech it said within the last second, and NVDA cancels speech on every key:
        // the "Results updated" posted between keystrokes is never heard while typing (the flood is still a
        // finding, and the count after typing stops still fails).
        "announcement-spam/before-search.earshot|nothing announced while typing": [.talkBack: true, .nvda: true],
        "meaningful-announcement/before-search.earshot|no speech while typing": [.talkBack: true, .nvda: true],
    ]

    static func run(_ source: String, path: String, reader: ScreenReader) throws -> (ScenarioRun, [CheckResult]) {
        let document = try ScenarioParser.parse(source: source, path: path)
        let synthesizer = try EspeakSynthesizer.shared(voicesDirectory: root.appendingPathComponent("Voices").path)
        let profile = try ScenarioRunner.profile(for: document).reading(with: reader)
        let run = try ScenarioRunner.run(
            document, profile: profile, voice: .standard, speech: SpeechLibrary(synthesizer: synthesizer))
        return (run, CheckEvaluator(run: run).evaluate())
    }

    static let pairs: [(String, ScreenReader)] = scripts.flatMap { script in readers.map { (script, $0) } }

    @Test(arguments: pairs)
    func everyScriptRunsUnderEveryReaderAndOnlyTheKnownChecksChangeVerdict(script: String, reader: ScreenReader)
        throws
    {
        let path = Self.root.appendingPathComponent("Scripts/" + script).path
        let source = try String(contentsOfFile: path, encoding: .utf8)
        let (voiceOverRun, voiceOver) = try Self.run(source, path: path, reader: .voiceOver)
        let (run, checks) = try Self.run(source, path: path, reader: reader)
        #expect(run.profile.reader == reader)
        #expect(voiceOverRun.profile.reader == .voiceOver)
        #expect(checks.map(\.name) == voiceOver.map(\.name))
        for (check, baseline) in zip(checks, voiceOver) {
            let expected = Self.differences["\(script)|\(check.name)"]?[reader] ?? baseline.passed
            #expect(check.passed == expected, "\(script): \(check.name) under \(reader.rawValue)")
        }
    }

    static let ssipScript = """
        title "SSIP"
        pattern announcement-spam
        variant after
        screen S
          text status "Status"
        at 0s    ssip message "Copying your photos to the card" client files
        +300ms   ssip progress "40 percent" client files
        +300ms   ssip notification "Ping" client chat
        +300ms   ssip important "Battery low" client system
        wait 4s
        at 5s    ssip text "Menu item, first of many, still being read" client menu
        +300ms   ssip stop client menu
        +200ms   ssip message "One" client a
        +100ms   ssip message "Two" client a
        +100ms   ssip cancel client a
        wait 3s
        """

    @Test func nativeSSIPLinesFollowSpeechDispatcherRulesPerClient() throws {
        let (run, _) = try Self.run(Self.ssipScript, path: "ssip.earshot", reader: .speechDispatcher)
        let records = run.timeline.utterances
        func outcome(_ text: String) -> String {
            switch records.first(where: { $0.utterance.text == text })?.outcome {
            case .spoken?: return "spoken"
            case .interrupted?: return "cut"
            case .dropped(_, let reason, _)?: return "dropped: \(reason.rawValue)"
            default: return "missing"
            }
        }
        #expect(outcome("Copying your photos to the card") == "cut")
        #expect(outcome("Ping") == "dropped: cancelled by a higher priority")
        #expect(outcome("Battery low") == "spoken")
        #expect(outcome("40 percent") == "spoken")  // the last of its series, re-filed as a message
        #expect(outcome("Menu item, first of many, still being read") == "cut")
        #expect(outcome("One") == "cut")
        #expect(outcome("Two") == "dropped: client cancelled")
        #expect(records.first { $0.utterance.text == "Battery low" }?.rule == "SD-important")
    }

    @Test func nativeSSIPLinesAreNotHeardUnderOtherReaders() throws {
        let (run, _) = try Self.run(Self.ssipScript, path: "ssip.earshot", reader: .voiceOver)
        #expect(run.timeline.utterances.isEmpty)
        let notes = run.timeline.events.compactMap { event -> String? in
            if case .app(let text) = event.kind { return text }
            return nil
        }
        #expect(
            notes.contains(
                "ssip message \"Copying your photos to the card\" client files (only speech-dispatcher hears SSIP)"))
    }

    @Test(arguments: [
        ("at 0s ssip loud \"x\"", "bad.earshot:6:12: error: unknown SSIP priority or command 'loud'"),
        ("at 0s ssip message", "bad.earshot:6:"),
        ("at 0s ssip stop client", "bad.earshot:6:"),
    ])
    func malformedSSIPLinesAreReportedAtTheirLine(line: String, prefix: String) throws {
        let source = "title \"T\"\npattern custom p\nvariant before\nscreen S\n  text a \"A\"\n\(line)\n"
        do {
            _ = try ScenarioParser.parse(source: source, path: "bad.earshot")
            Issue.record("parsed: \(line)")
        } catch {
            #expect(error.description.hasPrefix(prefix), "\(error.description)")
        }
    }

    static let readerCheckScript = """
        title "Readers"
        pattern announcement-spam
        variant after
        screen S
          button add "Add"
        at 0s  focus add
        +100ms announce "Added to cart"
        wait 3s
        check "the confirmation cuts the focus read":
          exactly 1 cut
        check "the confirmation waits for the focus read" under talkback, nvda:
          no cut
        """

    @Test(arguments: [
        (ScreenReader.voiceOver, ["the confirmation cuts the focus read"], [true]),
        (
            .talkBack,
            [
                "the confirmation cuts the focus read",
                "the confirmation waits for the focus read (under TalkBack, NVDA)",
            ], [false, true]
        ),
        (
            .nvda,
            [
                "the confirmation cuts the focus read",
                "the confirmation waits for the focus read (under TalkBack, NVDA)",
            ], [false, true]
        ),
    ])
    func aCheckUnderNamedReadersRunsOnlyUnderThem(reader: ScreenReader, names: [String], verdicts: [Bool]) throws {
        let (_, checks) = try Self.run(Self.readerCheckScript, path: "readers.earshot", reader: reader)
        #expect(checks.map(\.name) == names)
        #expect(checks.map(\.passed) == verdicts)
    }

    @Test func anUnknownReaderAfterUnderIsReportedWithASuggestion() throws {
        let source = Self.readerCheckScript.replacingOccurrences(of: "under talkback, nvda", with: "under talkbak")
        do {
            _ = try ScenarioParser.parse(source: source, path: "readers.earshot")
            Issue.record("parsed an unknown reader")
        } catch {
            #expect(
                error.description.hasPrefix("readers.earshot:11:57: error: unknown screen reader"),
                "\(error.description)")
            #expect(error.description.contains("unknown screen reader 'talkbak'"))
            #expect(error.description.contains("talkback"))
        }
    }

    @Test func anUnknownReaderIsABadCommandLineWithASuggestion() throws {
        let result = try EarshotBinary.run(
            ["check", "--reader", "talkbak", packageRoot + "/Scripts/announcement-spam/after-cart.earshot"])
        #expect(result.status == 64)
        #expect(result.error.contains("--reader talkbak: no such screen reader (did you mean 'talkback'?)"))
    }

    @Test func checkUnderAReaderNamesItInTheReport() throws {
        let result = try EarshotBinary.run(
            ["check", "--reader", "nvda", packageRoot + "/Scripts/announcement-spam/after-cart.earshot"])
        #expect(result.status == 0)
        #expect(result.output.contains("(after, nvda, voice default)"))
    }

    @Test func compareReadersRendersOneFileWithALabelBeforeEachReadersRun() throws {
        let folder = NSTemporaryDirectory() + "earshot-readers-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try EarshotBinary.run([
            "compare", "--readers", "voiceover,talkback,nvda,speech-dispatcher",
            packageRoot + "/Scripts/announcement-spam/before-cart.earshot", "-o", folder + "/readers.wav", "--html",
            folder + "/readers.html",
        ])
        #expect(result.status == 0, "\(result.error)")
        let transcript = try String(contentsOfFile: folder + "/readers.vtt", encoding: .utf8)
        let spoken = ["VoiceOver.", "TalkBack.", "NVDA.", "Speech dispatcher."]
        let offsets = spoken.compactMap { transcript.range(of: "\n\($0)\n")?.lowerBound }
        #expect(offsets.count == 4)
        #expect(offsets == offsets.sorted())
        let jsonl = try String(contentsOfFile: folder + "/readers.jsonl", encoding: .utf8)
        for profile in ["voiceover", "talkback", "nvda", "speech-dispatcher"] {
            #expect(jsonl.contains("\"profile\":\"\(profile)\""), "segment under \(profile)")
        }
        let page = try String(contentsOfFile: folder + "/readers.html", encoding: .utf8)
        for lane in ["VoiceOver", "TalkBack", "NVDA", "Speech dispatcher"] {
            #expect(page.contains("<figcaption>\(lane):"), "lane for \(lane)")
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/readers.wav"))
    }

    @Test(arguments: ["check", "render", "listen", "compare"])
    func everyCommandThatRunsScriptsTakesAReader(command: String) throws {
        let result = try EarshotBinary.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("--reader"))
    }

    @Test(arguments: [
        (["conformance", "talkback"], "conformance compares with speech-dispatcher only"),
        (["conformance", "speech-dispatcher", "--scenario", "no such scenario"], "no scenario name contains"),
    ])
    func conformanceRejectsOtherServersAndUnknownScenariosBeforeStartingAnything(
        arguments: [String], message: String
    ) throws {
        let result = try EarshotBinary.run(arguments)
        #expect(result.status == 64)
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test func compareRejectsReaderAndReadersTogether() throws {
        let result = try EarshotBinary.run([
            "compare", "--reader", "nvda", "--readers", "talkback,nvda",
            packageRoot + "/Scripts/announcement-spam/before-cart.earshot", "-o", "x.wav",
        ])
        #expect(result.status == 64)
        #expect(result.error.contains("use either --reader or --readers"))
    }
}
