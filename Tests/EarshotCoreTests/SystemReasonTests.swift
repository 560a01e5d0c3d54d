import Foundation
import Testing

@testable import EarshotCore

/// Messages give the system's reason for a failed file operation, however Foundation wraps it.
@Suite struct SystemReasonTests {
    static let missingFolder = NSTemporaryDirectory() + "earshot-no-such-folder-" + UUID().uuidString

    @Test func aFoundationFileErrorGivesTheSystemsReason() throws {
        var failure: (any Error)?
        do {
            try Data("x".utf8).write(to: URL(fileURLWithPath: Self.missingFolder + "/file"))
        } catch {
            failure = error
        }
        let error = try #require(failure)
        #expect(!"\(error)".hasPrefix("No such file"), "Foundation describes it its own way: \(error)")
        #expect(SystemReason.of(error) == "No such file or directory")
    }

    @Test func aPOSIXErrorGivesItsText() {
        #expect(SystemReason.of(POSIXError(.ENOSPC)) == "No space left on device")
        #expect(SystemReason.text(ENOSPC) == "No space left on device")
    }

    /// An error with no system reason in it: a Foundation one gives its sentence, not its dump; any other describes
    /// itself.
    @Test func anotherErrorDescribesItself() {
        struct Broken: Error, CustomStringConvertible {
            var description: String { "broken in its own way" }
        }
        #expect(SystemReason.of(Broken()) == "broken in its own way")
        let corrupt = CocoaError(.fileReadCorruptFile)
        #expect("\(corrupt)".contains("Error Domain="), "Foundation describes it as a dump: \(corrupt)")
        #expect(SystemReason.of(corrupt) == corrupt.localizedDescription)
        #expect(!SystemReason.of(corrupt).contains("Error Domain="))
    }
}
