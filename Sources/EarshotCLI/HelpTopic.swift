import EarshotSystem
import Foundation

/// `earshot help TOPIC`: the project's own documentation pages, printed in the terminal, from the checkout
/// or the install's share folder (see `InstallLayout`).
public struct HelpTopic: Sendable, Equatable {
    /// The word after `help`.
    public var name: String
    /// What it covers, for the list of topics.
    public var summary: String
    /// The page, relative to the checkout or share folder.
    public var page: String
    /// The section of the page to print (its `## ` heading), or nil for the whole page.
    public var section: String?

    /// The topics, in the order `earshot help topics` lists them.
    public static let all: [HelpTopic] = [
        HelpTopic(name: "script", summary: "the scenario script format", page: "docs/scenario-format.md"),
        HelpTopic(
            name: "checks", summary: "check blocks and their assertions", page: "docs/scenario-format.md",
            section: "Checks"),
        HelpTopic(
            name: "timeline", summary: "timed lines and user actions", page: "docs/scenario-format.md",
            section: "Timeline"),
        HelpTopic(name: "voices", summary: "voice profiles (.voice files)", page: "Voices/README.md"),
        HelpTopic(
            name: "speech-model", summary: "the screen-reader rules the engine applies", page: "docs/speech-model.md"),
        HelpTopic(name: "patterns", summary: "the five patterns and their pages", page: "docs/patterns/README.md"),
        HelpTopic(
            name: "review-page", summary: "the review page render and compare write", page: "docs/review-page.md"),
        HelpTopic(name: "testing-api", summary: "headless tests in your own Swift suites", page: "docs/testing-api.md"),
        HelpTopic(
            name: "architecture", summary: "how the pieces fit, and where things live", page: "docs/architecture.md"),
        HelpTopic(
            name: "install", summary: "installing, and where earshot looks for its files", page: "docs/architecture.md",
            section: "Installing"),
        HelpTopic(
            name: "bench", summary: "what earshot bench measures, and how to read it", page: "docs/performance.md"),
    ]

    /// The topic with `name`, or a pattern's page (`earshot help announcement-spam`).
    public static func named(_ name: String) -> HelpTopic? {
        if let topic = all.first(where: { $0.name == name }) { return topic }
        guard name.range(of: "^[a-z0-9-]+$", options: .regularExpression) != nil else { return nil }
        let page = "docs/patterns/\(name).md"
        return InstallLayout.locate(page) == nil ? nil : HelpTopic(name: name, summary: "", page: page)
    }

    /// The list `earshot help topics` prints.
    public static func listing() -> String {
        let width = all.map(\.name.count).max() ?? 0
        return "TOPICS (earshot help TOPIC):\n"
            + all.map { "  " + $0.name.padding(toLength: width + 3, withPad: " ", startingAt: 0) + $0.summary }
            .joined(separator: "\n") + "\n  PATTERN" + String(repeating: " ", count: max(1, width - 4))
            + "a pattern's page, e.g. announcement-spam\n"
    }

    /// The topic's text.
    ///
    /// - Throws: `CommandFailure` naming the page when it cannot be found or read, or the section is missing.
    public func text() throws -> String {
        guard let path = InstallLayout.locate(page) else {
            throw CommandFailure(
                "help \(name): \(page) not found (walked up from the current folder and looked in "
                    + "\(InstallLayout.sharePath) next to the executable's folder)")
        }
        let whole: String
        do {
            whole = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandFailure("help \(name): cannot read \(path): \(error.localizedDescription)")
        }
        guard let section else { return whole.hasSuffix("\n") ? whole : whole + "\n" }
        let lines = whole.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0 == "## " + section }) else {
            throw CommandFailure("help \(name): \(path) has no section '\(section)'")
        }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n").trimmingCharacters(in: .newlines) + "\n"
    }
}
