import EarshotTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A render's WAV, transcript, timeline and review page appear together or not at all: Ctrl-C or SIGTERM at any
/// moment leaves the whole previous set or the whole new one, and a set split by SIGKILL is caught by `verify`.
///
/// Signals are timed by what the render does, seen through inotify (its hidden temporaries appearing), with a
/// small random delay on top; never by guessing how long a render takes.
@Suite(.serialized) struct RenderSignalTests {
    static let oldScript = packageRoot + "/Scripts/announcement-spam/before-search.earshot"
    static let newScript = packageRoot + "/Scripts/announcement-spam/after-search.earshot"
    static let names = ["out.html", "out.jsonl", "out.vtt", "out.wav"]

    /// The render's words for `script` into `folder`.
    static func words(_ script: String, into folder: String) -> [String] {
        ["render", script, "-o", folder + "/out.wav", "--html", folder + "/out.html"]
    }

    /// Each file of a set by name.
    static func contents(of folder: String) -> [String: Data] {
        var set: [String: Data] = [:]
        for name in names { set[name] = FileManager.default.contents(atPath: folder + "/" + name) }
        return set
    }

    /// The old and the new set, rendered once each.
    static func referenceSets(in scratch: String) throws -> (old: [String: Data], new: [String: Data]) {
        var sets: [[String: Data]] = []
        for (index, script) in [oldScript, newScript].enumerated() {
            let folder = scratch + "/reference-\(index)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let result = try EarshotBinary.run(words(script, into: folder))
            try #require(result.status == 0, "\(result.error)")
            sets.append(contents(of: folder))
        }
        try #require(sets[0] != sets[1])
        return (sets[0], sets[1])
    }

    /// When in the render a trial's signal is sent.
    enum Moment: CaseIterable {
        /// As soon as the process runs (before or while it parses and synthesizes).
        case atStart
        /// When the WAV's temporary appears (streaming starts).
        case wavStarted
        /// When the timeline's temporary appears (the WAV is finished).
        case timelineStaged
        /// When the page's temporary appears: the files are about to be flushed and moved into place.
        case pageStaged
        /// When the first file (the WAV) has been moved into place and the others are being moved.
        case firstRename

        /// The temporary whose creation triggers the signal.
        var trigger: String? {
            switch self {
            case .atStart: nil
            case .wavStarted: ".out.wav."
            case .timelineStaged: ".out.jsonl."
            case .pageStaged: ".out.html."
            case .firstRename: "out.wav"
            }
        }

        /// Whether `name` (created or moved into the folder) is this moment's event.
        func isTrigger(_ name: String) -> Bool {
            guard let trigger else { return false }
            return self == .firstRename ? name == trigger : name.hasPrefix(trigger) && name.hasSuffix(".tmp")
        }
    }

    /// One trial: the old set in `folder`, a render of the new script, `signal` at `moment` plus `delay`
    /// microseconds. Returns the exit status and what is in the folder afterwards.
    static func trial(
        folder: String, old: [String: Data], signal number: Int32, moment: Moment, delay: UInt32
    ) throws -> (status: Int32, files: [String: Data], litter: [String]) {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, data) in old { try data.write(to: URL(fileURLWithPath: folder + "/" + name)) }
        let watcher = try FolderWatcher(folder)
        let process = try EarshotBinary.start(words(newScript, into: folder))
        if moment.trigger != nil {
            // A generous ceiling: the event, not the time, decides; a render that ends first just ends.
            _ = watcher.waitForCreation {
                moment.isTrigger($0)
            } isDone: {
                !process.isRunning
            }
        }
        usleep(delay)
        kill(process.processIdentifier, number)
        process.waitUntilExit()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return (process.terminationStatus, contents(of: folder), entries.filter { !names.contains($0) })
    }

    /// The random delay after a moment's event, in microseconds: up to 30 ms from the start, 4 ms after a
    /// temporary appears, 0.5 ms after the first rename (the others follow within microseconds).
    static func longestDelay(_ moment: Moment) -> UInt32 {
        switch moment {
        case .atStart: 30_000
        case .wavStarted, .timelineStaged, .pageStaged: 4_000
        case .firstRename: 500
        }
    }

    @Test func sigintOrSigtermAtAnyMomentLeavesTheWholeOldSetOrTheWholeNewSet() throws {
        let scratch = NSTemporaryDirectory() + "earshot-signals-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let (old, new) = try Self.referenceSets(in: scratch)
        var random = SplitMix64(state: 10)
        var outcomes: [String: Int] = [:]
        for index in 0..<40 {
            let number = index % 2 == 0 ? SIGINT : SIGTERM
            let moment = Moment.allCases[index / 2 % Moment.allCases.count]
            let delay = UInt32.random(in: 0...Self.longestDelay(moment), using: &random)
            let result = try Self.trial(
                folder: scratch + "/trial", old: old, signal: number, moment: moment, delay: delay)
            let which = result.files == old ? "old" : result.files == new ? "new" : "mixed"
            outcomes[which, default: 0] += 1
            #expect(which != "mixed", "trial \(index): \(moment) + \(delay) µs, signal \(number): a mixed set")
            #expect(result.litter.isEmpty, "trial \(index): left \(result.litter)")
            #expect([0, 130, 143, number].contains(result.status), "trial \(index): status \(result.status)")
        }
        print("40 interrupted renders: \(outcomes.sorted { $0.key < $1.key })")
        #expect((outcomes["old"] ?? 0) > 0)
    }

    @Test func aSetSplitBySIGKILLIsReportedByVerifyAndAWholeOneIsNot() throws {
        let scratch = NSTemporaryDirectory() + "earshot-sigkill-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let (old, new) = try Self.referenceSets(in: scratch)
        var random = SplitMix64(state: 20)
        var outcomes: [String: Int] = [:]
        for index in 0..<16 {
            let moment: Moment = index % 4 == 0 ? .pageStaged : .firstRename
            let delay = UInt32.random(in: 0...Self.longestDelay(moment), using: &random)
            let folder = scratch + "/trial"
            let result = try Self.trial(folder: folder, old: old, signal: SIGKILL, moment: moment, delay: delay)
            let mixed = result.files != old && result.files != new
            for name in Self.names {
                #expect(result.files[name] == old[name] || result.files[name] == new[name], "\(name) is partial")
            }
            outcomes[mixed ? "mixed" : result.files == old ? "old" : "new", default: 0] += 1
            let verified = try EarshotBinary.run(["verify", folder + "/out.wav", "--html", folder + "/out.html"])
            #expect(verified.status == (mixed ? 1 : 0), "trial \(index): \(verified.output)\(verified.error)")
            if mixed { #expect(verified.error.contains("was written for other audio")) }
        }
        print("16 killed renders: \(outcomes.sorted { $0.key < $1.key })")
    }
}

/// Reports files created in a folder or moved into it, through inotify.
final class FolderWatcher {
    private let descriptor: Int32

    init(_ folder: String) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0, inotify_add_watch(descriptor, folder, UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) >= 0
        else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(descriptor) }

    /// Waits until a file whose name satisfies `matches` is created or moved in, or `isDone()` (checked every 50 ms), or a
    /// minute passes. Returns whether the file appeared.
    func waitForCreation(_ matches: (String) -> Bool, isDone: () -> Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<1200 {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 50) > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                var offset = 0
                // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of NUL-padded name.
                while count > 0, offset + 16 <= count {
                    let length =
                        Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8
                        | Int(buffer[offset + 14]) << 16 | Int(buffer[offset + 15]) << 24
                    let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    if matches(String(decoding: nameBytes, as: UTF8.self)) { return true }
                    offset += 16 + length
                }
            } else if isDone() {
                return false
            }
        }
        return false
    }
}
