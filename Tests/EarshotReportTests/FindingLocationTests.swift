@testable import EarshotCore
import EarshotScript
import Foundation
import Testing

@testable import EarshotReport

/// Where a finding points in its script.
@Suite struct FindingLocationTests {
    @Test func aFindingPointsAtTheLastTimedLineAtOrBeforeIt() throws {
        let source = """
            title "t"
            pattern announcement-spam
            variant before
            screen S
              button a "A"
            at 0s focus a
            at 2s activate a
            at 5s activate a
            """
        let document = try ScenarioParser.parse(source: source, path: "x.earshot")
        func finding(at seconds: Double) -> Finding {
            Finding(
                rule: "announcement-flood", impact: .serious, card: "announcement-spam", at: .seconds(seconds),
                message: "", occurrences: 1)
        }
        #expect(CheckReport.location(of: finding(at: 2.01), in: document).line == 7)
        #expect(CheckReport.location(of: finding(at: 2), in: document).line == 7)
        #expect(CheckReport.location(of: finding(at: 1.99), in: document).line == 6)
        #expect(CheckReport.location(of: finding(at: 9), in: document).line == 8)
    }
}
