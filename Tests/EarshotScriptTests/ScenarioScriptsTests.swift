import EarshotCore
import EarshotScript
import Foundation
import Testing

/// Every script under `Scripts/` parses, and each pattern's before/after pairs line up.
@Suite struct ScenarioScriptsTests {
    static let scriptsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts")

    /// Paths relative to `Scripts/`, e.g. `announcement-spam/before-search.earshot`.
    static let scripts: [String] = {
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(atPath: scriptsDirectory.path) else { return [] }
        return enumerator.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".\(ScenarioParser.fileExtension)") }
            .sorted()
    }()

    static func parse(_ relative: String) throws -> ScenarioDocument {
        let url = scriptsDirectory.appendingPathComponent(relative)
        let source = try String(contentsOf: url, encoding: .utf8)
        return try ScenarioParser.parse(source: source, path: "Scripts/" + relative)
    }

    @Test func everyPatternCardHasScripts() {
        let patterns = Set(Self.scripts.compactMap { $0.split(separator: "/").first.map(String.init) })
        #expect(
            patterns == [
                "announcement-spam", "meaningful-announcement", "updates-frequently", "skeleton-noise",
                "audio-only-task",
            ])
    }

    @Test(arguments: scripts)
    func scriptParsesWithHeaderMatchingItsPath(_ relative: String) throws {
        let document: ScenarioDocument
        do {
            document = try Self.parse(relative)
        } catch {
            Issue.record("\(error)")
            return
        }
        let parts = relative.split(separator: "/").map(String.init)
        let file = parts.last ?? ""
        #expect(document.header.pattern == parts.first)
        #expect(file.hasPrefix(document.header.variant.rawValue))
        #expect(document.header.saysDifferent?.isEmpty == false, "the header says what should sound different")
        #expect(!document.checks.isEmpty)
        #expect(document.checks.allSatisfy { !$0.assertions.isEmpty })
        #expect(!document.timeline.isEmpty)
    }

    @Test(arguments: scripts.filter { $0.contains("/before") })
    func beforeAndAfterShareTitleChecksAndUserActions(_ beforePath: String) throws {
        let afterPath = beforePath.replacingOccurrences(of: "/before", with: "/after")
        let before = try Self.parse(beforePath)
        let after = try Self.parse(afterPath)
        #expect(before.header.variant == .before)
        #expect(after.header.variant == .after)
        #expect(before.header.title == after.header.title)
        #expect(before.header.saysDifferent == after.header.saysDifferent)
        #expect(before.checks.map(\.name) == after.checks.map(\.name))
        #expect(before.checks.map { $0.assertions.map(\.text) } == after.checks.map { $0.assertions.map(\.text) })
        let userTimes = { (document: ScenarioDocument) in
            document.timeline.compactMap { event -> Instant? in
                if case .user = event.action { return event.time }
                return nil
            }
        }
        #expect(userTimes(before) == userTimes(after), "the user does the same thing in both")
    }

    @Test(arguments: scripts.filter { $0.contains("/before") })
    func pairDiffersOnlyInAFewLines(_ beforePath: String) throws {
        let read = { (relative: String) throws -> [String] in
            try String(contentsOf: Self.scriptsDirectory.appendingPathComponent(relative), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        let before = try read(beforePath)
        let after = try read(beforePath.replacingOccurrences(of: "/before", with: "/after"))
        let removed = before.filter { !after.contains($0) }
        let added = after.filter { !before.contains($0) }
        #expect(removed.contains("variant  before") && added.contains("variant  after"))
        #expect(removed.count + added.count <= 14, "a pair differs only in the lines that carry the fix")
        #expect(removed.count + added.count >= 3, "the fix changes at least one line")
    }
}
