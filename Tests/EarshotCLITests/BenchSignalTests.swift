import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C or SIGTERM during `earshot bench` ends the children it is measuring and removes its scratch folder (the
/// children's scripts, outputs and phrase caches): nothing is left in the temporary folder, and no child runs on.
///
/// The signal is timed by what the benchmark does, seen through inotify: its scratch folder appearing, then a
/// phrase cache folder appearing in it (a child is about to start or running), plus a small random delay.
@Suite(.serialized) struct BenchSignalTests {
    static let script = packageRoot + "/Scripts/announcement-spam/before-order-status.earshot"

    /// The process ids whose command line mentions `text`.
    static func processes(mentioning text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = Int32(entry),
                let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                String(decoding: line, as: UTF8.self).contains(text)
            else { return nil }
            return pid
        }
    }

    /// Twelve trials, SIGINT and SIGTERM in turn, 0 to 22 ms after the first phrase cache folder appears: the first
    /// child then makes its espeak-ng data folder (the temporary folder is new), which an interrupt used to leave
    /// half made.
    static let trials: [(signal: Int32, status: Int32, delay: UInt32)] = (0..<12).map { index in
        index % 2 == 0 ? (SIGINT, 130, UInt32(index) * 2_000) : (SIGTERM, 143, UInt32(index) * 2_000)
    }

    @Test(arguments: trials)
    func anInterruptedBenchEndsItsChildrenAndLeavesNothing(signal number: Int32, status: Int32, delay: UInt32) throws {
        let temporary = NSTemporaryDirectory() + "earshot-bench-signal-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let watcher = try FolderWatcher(temporary)
        let process = try EarshotBinary.start(
            ["bench", Self.script, "--stopwatch", "0", "--rounds", "3"], environment: ["TMPDIR": temporary])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var scratchName = ""
        let started = watcher.waitForCreation {
            scratchName = $0
            return $0.hasPrefix("earshot-bench-")
        } isDone: {
            !process.isRunning
        }
        try #require(started, "the benchmark made no scratch folder in \(temporary)")
        let scratch = temporary + "/" + scratchName
        let inScratch = try FolderWatcher(scratch)
        let hasCache = { (name: String) in name.hasPrefix("cache-") }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []
        if !entries.contains(where: hasCache) {
            try #require(
                inScratch.waitForCreation(hasCache) { !process.isRunning },
                "the benchmark made no phrase cache folder in \(scratch)")
        }
        usleep(delay)
        // A child is starting or running, its outputs and cache in the scratch folder.
        kill(process.processIdentifier, number)
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        // A child's espeak-ng data folder, once made whole, is kept there for later runs under a name of its own,
        // and may stay; nothing else may, a folder half made included.
        let kept = "earshot-espeak-data-\(geteuid())-"
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).filter {
            !$0.hasPrefix(kept) || $0.contains(".removed-")
        }
        #expect(left.isEmpty, "left in the temporary folder: \(left)")
        // Each child names the scratch folder on its command line (its cache, its script or phrase list).
        #expect(Self.processes(mentioning: scratch).isEmpty, "children still running after the benchmark ended")
    }
}
