import EarshotScript
import Foundation
import Testing

/// Every assertion docs/scenario-format.md shows under "Checks" parses: the counting examples and each
/// assertion in the "Other assertions" table.
@Suite struct DocumentedAssertionsTests {
    static let documentation: String = {
        let url = CheckTestSupport.root.appendingPathComponent("docs/scenario-format.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// The lines of the code block after "### Counting" and the backticked assertions of the table.
    static let examples: [String] = {
        let text = documentation
        guard let counting = text.range(of: "### Counting"), let windows = text.range(of: "### Windows"),
            let other = text.range(of: "### Other assertions"), let errors = text.range(of: "## Errors")
        else { return [] }
        let countingPart = String(text[counting.upperBound..<windows.lowerBound])
        let blocks = countingPart.components(separatedBy: "```")
        let countLines = blocks.count > 1 ? blocks[1].split(separator: "\n").map(String.init) : []
        let table = String(text[other.upperBound..<errors.lowerBound]).split(separator: "\n").dropFirst(3)
        let tableLines = table.flatMap { row -> [String] in
            let cell = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().first ?? ""
            return cell.components(separatedBy: " · ").map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            }
        }
        return (countLines + tableLines).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }()

    @Test func theDocumentationShowsTheNewAssertions() {
        for expected in [
            "no lost announcements", "exactly 1 posted announcement matching \"Added to cart\"",
            "focus is on cart at 4s", "hint on cart starts after focus read on cart ends",
        ] {
            #expect(Self.examples.contains(expected), "\(expected) is not among \(Self.examples)")
        }
    }

    @Test(arguments: examples)
    func documentedAssertionParses(_ line: String) {
        let source = """
            title "docs"
            screen Orders
              button back "Back"
              header title "Order history"
              button cart "Cart"
              button undo "Undo"
              group banner "" contain
                text sent "Message sent"
              video player "Video" media brewing
              text stopwatch "00:00:00"
              text timer "Arrives in"
              toggle captions "Captions"
            screen OrdersEmpty
              header empty "No orders"
            screen OrdersFailed
              header failed "Failed"
            media brewing duration 6s:
              narration at 0.5s "Steep"
            at 0s load history after 2s:
              set back label "Back"
            at 1s focus cart
            check "c":
              \(line)
            """
        let errors = CheckTestSupport.parseErrors(source)
        #expect(errors.isEmpty, "\(line): \(errors)")
    }
}
