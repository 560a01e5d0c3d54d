import Foundation
import Testing

@testable import EarshotCLI

/// An error no command turned into a message of its own still reads as one: `PATH: REASON`.
@Suite struct UnexpectedErrorTests {
    @Test func aFoundationFileErrorNamesThePathAndTheSystemsReason() throws {
        let path = NSTemporaryDirectory() + "earshot-no-such-folder-" + UUID().uuidString + "/out.txt"
        var failure: (any Error)?
        do {
            try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            failure = error
        }
        let error = try #require(failure)
        #expect(Earshot.describe(error) == path + ": No such file or directory")
    }

    @Test func anErrorWithoutAPathDescribesItself() {
        struct Broken: Error, CustomStringConvertible {
            var description: String { "broken in its own way" }
        }
        #expect(Earshot.describe(Broken()) == "broken in its own way")
        #expect(Earshot.describe(POSIXError(.EACCES)) == "Permission denied")
    }
}
