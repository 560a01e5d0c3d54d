import EarshotCore
import Foundation

/// Runs the `earshot` executable being measured, and the raw espeak-ng reference, as child processes, each
/// measured alone by the kernel (wall, CPU of the child and everything it waited for, peak memory).
///
/// Whole processes on both sides: Earshot's speech is synthesized in worker processes, so only a child's own
/// `rusage` holds all of its cost, and the reference pays the same process start-up and espeak-ng
/// initialization as the render it is compared with. Every Earshot child gets a cache folder of its own
/// (``cacheVariable``), empty for a cold run, so nothing a user's earlier runs cached takes part.
public struct BenchRunner: Sendable {
    /// The environment variable that points Earshot's phrase cache at a folder.
    public static let cacheVariable = "EARSHOT_CACHE_DIR"

    /// The `earshot` executable measured (the reference runs through it too: `bench --raw`).
    public var executable: String
    /// Arguments every child gets (`--voices DIR` when a voices folder is in use).
    public var commonArguments: [String]
    /// A folder for scripts, phrase lists, outputs and caches, removed by ``removeScratch()``.
    public let scratch: String

    /// Creates a runner with a new scratch folder.
    public init(executable: String, voicesDirectory: String?) throws(BenchError) {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw BenchError("\(executable): not an executable earshot")
        }
        self.executable = executable
        commonArguments = voicesDirectory.map { ["--voices", $0] } ?? []
        scratch = NSTemporaryDirectory() + "earshot-bench-" + UUID().uuidString
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        } catch {
            throw BenchError("\(scratch): cannot create the benchmark's scratch folder: \(SystemReason.of(error))")
        }
    }

    /// Why the scratch folder cannot be written (a full disk), found by writing a block to it; nil when it can.
    func scratchProblem() -> String? {
        let probe = scratch + "/.probe-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: probe) }
        do {
            try Data(count: 4096).write(to: URL(fileURLWithPath: probe))
            return nil
        } catch {
            return SystemReason.of(error)
        }
    }

    /// Removes the scratch folder and everything in it.
    public func removeScratch() {
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// A new, empty cache folder inside the scratch folder.
    public func newCache() throws(BenchError) -> String {
        let path = scratch + "/cache-" + UUID().uuidString
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw BenchError("\(path): cannot create a cache folder: \(SystemReason.of(error))")
        }
        return path
    }

    /// Writes `text` to a file in the scratch folder and returns its path.
    public func write(_ text: String, named name: String) throws(BenchError) -> String {
        let path = scratch + "/" + name
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw BenchError("\(path): cannot write it: \(SystemReason.of(error))")
        }
        return path
    }

    /// Runs `earshot ARGUMENTS` with the phrase cache in `cache`, and fails unless it exits with one of `accepted`.
    public func earshot(_ arguments: [String], cache: String, accepted: Set<Int32> = [0]) throws(BenchError)
        -> ChildUsage
    {
        try sideBySide([arguments], cache: cache, accepted: accepted).each[0]
    }

    /// Runs `earshot ARGUMENTS` once for each of `runs`, all at once, with the phrase cache in `cache`: the wall
    /// time until the last one ended, and each one's usage. Fails unless every one exits with one of `accepted`.
    public func sideBySide(_ runs: [[String]], cache: String, accepted: Set<Int32> = [0]) throws(BenchError)
        -> (wall: Double, each: [ChildUsage])
    {
        let errors = runs.indices.map { scratch + "/stderr" + ($0 == 0 ? "" : "-\($0)") }
        let measured: (wall: Double, each: [ChildUsage])
        do {
            measured = try ChildUsage.measureSideBySide(
                zip(runs, errors).map { ($0 + commonArguments, $1) }, executable: executable,
                environment: [Self.cacheVariable: cache])
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError("\(executable): \(error)")
        }
        for (index, usage) in measured.each.enumerated() where !accepted.contains(usage.status) {
            let arguments = runs[index]
            let text = (try? String(contentsOfFile: errors[index], encoding: .utf8)) ?? ""
            // Its standard error goes to the scratch folder: when that is full, the child's reason is lost with it.
            if text.isEmpty, let reason = scratchProblem() {
                throw BenchError("cannot write the benchmark's scratch folder \(scratch): \(reason)")
            }
            // A folder's scripts would fill the screen: the first few arguments name the command well enough.
            let shown =
                arguments.count > 6
                ? arguments.prefix(4).joined(separator: " ") + " … (\(arguments.count - 4) more)"
                : arguments.joined(separator: " ")
            throw BenchError(
                "earshot \(shown) exited with status \(usage.status): "
                    + text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return measured
    }

    /// The heard phrases of `script`, written by a child (`bench --heard-phrases`) to a file; returns its path.
    public func heardPhrases(of script: String, named name: String) throws(BenchError) -> String {
        let list = scratch + "/" + name + ".phrases"
        _ = try earshot(["bench", "--heard-phrases", list, script], cache: try newCache())
        return list
    }

    /// The raw espeak-ng reference speaking the phrase file at `list`, in a child (`bench --raw`).
    public func raw(_ list: String, loadedAsEarshot: Bool = false) throws(BenchError) -> ChildUsage {
        try earshot(["bench", "--raw", list] + (loadedAsEarshot ? ["--stand-in"] : []), cache: scratch)
    }

    /// The raw reference speaking each phrase file of `lists` in a child of its own, all at once: the wall time
    /// until the last one ended, and the children's CPU time.
    public func rawSideBySide(_ lists: [String]) throws(BenchError) -> (wall: Double, cpu: Double) {
        let measured = try sideBySide(lists.map { ["bench", "--raw", $0] }, cache: scratch)
        return (measured.wall, measured.each.map(\.cpu).reduce(0, +))
    }

    /// The median of `values` (the mean of the middle two for an even count); 0 for none.
    public static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The median wall time, CPU time and peak memory of `usages` (each taken on its own), with the worst status.
    public static func median(_ usages: [ChildUsage]) -> ChildUsage {
        let peaks = usages.map(\.peakKilobytes).sorted()
        return ChildUsage(
            wall: median(usages.map(\.wall)), cpu: median(usages.map(\.cpu)),
            peakKilobytes: peaks.isEmpty ? 0 : peaks[peaks.count / 2], status: usages.map(\.status).max() ?? 0)
    }
}
