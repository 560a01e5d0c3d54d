import Foundation
import Testing

@testable import EarshotCLI
@testable import EarshotReport
@testable import EarshotSystem

/// `--watch`: saves seen by inotify however the editor saves, and check re-running on a save.
@Suite struct WatchTests {
    @Test func aSaveByRenameAndAnInPlaceSaveAreBothSeenAndSwapFilesAreNot() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let watcher = try FileWatcher()
        try watcher.watch(folder: folder.path)
        // An editor's swap file and backup first: not relevant, so the wait must go on to the real save.
        try "x".write(toFile: folder.path + "/.a.earshot.swp", atomically: false, encoding: .utf8)
        try "x".write(toFile: folder.path + "/a.earshot~", atomically: false, encoding: .utf8)
        // vim / VS Code style: write a temporary, rename it over the script.
        try "x".write(toFile: folder.path + "/.a.earshot.tmp", atomically: false, encoding: .utf8)
        try FileManager.default.moveItem(atPath: folder.path + "/.a.earshot.tmp", toPath: folder.path + "/a.earshot")
        let renamed = try watcher.waitForChanges(timeout: .seconds(60), relevant: CheckWatch.isRelevant)
        #expect(renamed.map(\.name) == ["a.earshot"])
        // nano style: write the file in place.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.path + "/a.earshot"))
        try handle.write(contentsOf: Data("y".utf8))
        try handle.close()
        let inPlace = try watcher.waitForChanges(timeout: .seconds(60), relevant: CheckWatch.isRelevant)
        #expect(inPlace.map(\.path) == [folder.path + "/a.earshot"])
        // Only an editor's temporary: nothing relevant, so the wait times out empty.
        try "z".write(toFile: folder.path + "/.b.earshot.swp", atomically: false, encoding: .utf8)
        #expect(try watcher.waitForChanges(timeout: .milliseconds(300), relevant: CheckWatch.isRelevant).isEmpty)
    }

    @Test(arguments: [
        ("Scripts/x", "before.earshot", true),
        ("Voices", "fast.voice", true),
        ("Voices/variants", "earshot-narrator", true),
        ("Scripts/x", ".before.earshot.swp", false),
        ("Scripts/x", "before.earshot~", false),
        ("Scripts/x", "4913", false),
        ("Scripts/x", "notes.md", false),
    ])
    func onlyScriptsVoicesAndVariantsAreRelevant(folder: String, name: String, relevant: Bool) {
        #expect(CheckWatch.isRelevant(FileWatcher.Change(folder: folder, name: name)) == relevant)
    }

    @Test func checkWatchRunsAgainWhenTheScriptIsSaved() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let script = folder.path + "/after-search.earshot"
        try FileManager.default.copyItem(
            atPath: packageRoot + "/Scripts/announcement-spam/after-search.earshot", toPath: script)
        let watching = DispatchSemaphore(value: 0)
        let captured = CapturedContext()
        var context = captured.context
        let collect = context.writeOutput
        context.writeOutput = { text in
            collect(text)
            if text.hasPrefix("watching ") { watching.signal() }
        }
        context.environment[CheckWatch.runLimitVariable] = "2"
        let status = LockedStatus()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [context] in
            status.set(Earshot.run(["check", "--watch", script], context: context))
            done.signal()
        }
        thread.start()
        #expect(watching.wait(timeout: .now() + 120) == .success, "the first run ends by watching")
        // Save a version whose after script now fails a check (an announcement on every keystroke).
        let broken = try String(
            contentsOfFile: packageRoot + "/Scripts/announcement-spam/before-search.earshot", encoding: .utf8
        ).replacingOccurrences(of: "variant  before", with: "variant  after")
        try broken.write(toFile: script, atomically: true, encoding: .utf8)
        #expect(done.wait(timeout: .now() + 120) == .success, "the second run ends the loop")
        #expect(status.value == 1, "the second run fails: \(captured.output)")
        let output = captured.output
        #expect(output.components(separatedBy: "1 script: ").count == 3, "two runs: \(output)")
        #expect(output.contains("saved: \(script)"))
        #expect(output.contains("✔ nothing announced while typing"))
        #expect(output.contains("✘ nothing announced while typing"))
        #expect(!output.contains("\u{1B}[2J"), "no screen clearing when the output is not a terminal")
    }
}

extension WatchTests {
    @Test func withJSONTheOutputIsOnlyDocumentsAndTheLoopTalksOnStandardError() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let script = folder.path + "/after.earshot"
        try FileManager.default.copyItem(
            atPath: packageRoot + "/Scripts/updates-frequently/after.earshot", toPath: script)
        let watching = DispatchSemaphore(value: 0)
        let captured = CapturedContext()
        var context = captured.context
        let collect = context.writeError
        context.writeError = { text in
            collect(text)
            if text.hasPrefix("watching ") { watching.signal() }
        }
        context.environment[CheckWatch.runLimitVariable] = "2"
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [context] in
            _ = Earshot.run(["check", "--watch", "--format", "json", script], context: context)
            done.signal()
        }
        thread.start()
        #expect(watching.wait(timeout: .now() + 120) == .success)
        let saved = try String(contentsOfFile: script, encoding: .utf8) + "\n# saved again\n"
        try saved.write(toFile: script, atomically: true, encoding: .utf8)
        #expect(done.wait(timeout: .now() + 120) == .success)
        let documents = captured.output.components(separatedBy: "}\n{")
        #expect(documents.count == 2, "two JSON documents and nothing else: \(captured.output)")
        for (index, document) in documents.enumerated() {
            let text = (index == 0 ? "" : "{") + document + (index == documents.count - 1 ? "" : "}\n")
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any], "\(text)")
        }
        #expect(captured.error.contains("saved: \(script)"))
    }
}

/// `listen --watch`: the same loop around playback.
@Suite struct ListenWatchTests {
    @Test func listenWatchWithInteractiveIsAUsageError() {
        let captured = CapturedContext()
        let status = Earshot.run(
            ["listen", "--watch", "--interactive", packageRoot + "/Scripts/updates-frequently/after.earshot"],
            context: captured.context)
        #expect(status == 64)
        #expect(captured.error.contains("--watch replays scripts or --compare"))
    }

    @Test func listenWatchReportsEachRunsErrorAndKeepsTheLoopsStatus() {
        let captured = CapturedContext()
        var context = captured.context
        context.environment[CheckWatch.runLimitVariable] = "1"
        let status = Earshot.run(
            [
                "listen", "--watch", "--device", "earshot-no-such-card",
                packageRoot + "/Scripts/updates-frequently/after.earshot",
            ], context: context)
        #expect(status == 1)
        #expect(captured.error.contains("cannot open audio device 'earshot-no-such-card'"), "\(captured.error)")
    }
}

/// A status set by one thread and read by another.
final class LockedStatus: @unchecked Sendable {
    private let lock = NSLock()
    private var status: Int32 = -1
    var value: Int32 { lock.withLock { status } }
    func set(_ value: Int32) { lock.withLock { status = value } }
}
