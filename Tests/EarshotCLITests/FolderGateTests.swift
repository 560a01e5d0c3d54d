import Foundation
import Testing

@testable import EarshotCLI

/// `samples`' folder gate: an interrupt closes it before taking back what the run wrote, and a render still running
/// then makes no folder behind the take-back.
@Suite struct FolderGateTests {
    @Test func anOpenGateMakesTheFolderAndAClosedOneNone() throws {
        let folder = try OutputFolder()
        defer { folder.remove() }
        let gate = SamplesCommand.FolderGate()
        try gate.make(folder.path + "/a/b")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/a/b"))
        gate.close()
        #expect(throws: CancellationError.self) { try gate.make(folder.path + "/c/d") }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/c"), "a closed gate made a folder")
    }
}
