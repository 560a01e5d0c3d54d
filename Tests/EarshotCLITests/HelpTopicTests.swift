import Foundation
import Testing

@testable import EarshotCLI
@testable import EarshotReport

/// `earshot help TOPIC` prints the project's pages.
@Suite struct HelpTopicTests {
    @Test func helpScriptPrintsTheWholeFormatPage() throws {
        let result = try EarshotBinary.run(["help", "script"], in: packageRoot)
        #expect(result.status == 0)
        #expect(
            result.output == (try String(contentsOfFile: packageRoot + "/docs/scenario-format.md", encoding: .utf8)))
    }

    @Test func helpChecksPrintsOnlyTheChecksSection() throws {
        let result = try EarshotBinary.run(["help", "checks"], in: packageRoot)
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("## Checks\n"))
        #expect(result.output.contains("### Windows"))
        #expect(!result.output.contains("## Header"))
        #expect(!result.output.contains("## Errors"))
    }

    @Test(arguments: [
        ("speech-model", "# The speech model"), ("announcement-spam", "# Announcement spam"),
        ("install", "## Installing"), ("patterns", "# Patterns"),
    ])
    func everyTopicAndPatternNameOpensItsPage(topic: String, heading: String) throws {
        let result = try EarshotBinary.run(["help", topic], in: packageRoot)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix(heading + "\n"))
    }

    @Test func helpVoicesGivesTheCommandAndThenTheVoiceFileFormat() throws {
        let result = try EarshotBinary.run(["help", "voices"], in: packageRoot)
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("OVERVIEW: List the voice profiles"))
        #expect(result.output.contains("\n# Voices\n"))
    }

    @Test func helpBenchGivesTheCommandAndThenHowToReadItsFigures() throws {
        let result = try EarshotBinary.run(["help", "bench"], in: packageRoot)
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("OVERVIEW: Time check and render"))
        #expect(result.output.contains("\n# Speed: what `earshot bench` measures and how to read it\n"))
        #expect(result.output.contains("\n### Reading a two-job target\n"))
    }

    @Test func everyListedTopicsPageAndSectionExists() throws {
        for topic in HelpTopic.all {
            #expect(FileManager.default.fileExists(atPath: packageRoot + "/" + topic.page), "\(topic.page)")
            if let section = topic.section {
                let page = try String(contentsOfFile: packageRoot + "/" + topic.page, encoding: .utf8)
                #expect(page.contains("\n## \(section)\n"), "\(topic.page) has no section \(section)")
            }
        }
    }

    @Test func helpTopicsListsThemAndAnUnknownTopicIsAUsageError() throws {
        let topics = try EarshotBinary.run(["help", "topics"], in: packageRoot)
        #expect(topics.status == 0)
        #expect(topics.output.contains("speech-model"))
        let unknown = try EarshotBinary.run(["help", "scrpt"], in: packageRoot)
        #expect(unknown.status == 64)
        #expect(unknown.error.contains("no command or help topic 'scrpt' (did you mean 'script'?)"))
    }
}
