import Foundation
import Testing

@testable import EarshotSystem

/// This executable's path without Foundation's bundle machinery: the path `Bundle.main` gives, links resolved.
@Suite struct ExecutablePathTests {
    @Test func theExecutablesPathIsTheOneFoundationsMainBundleGives() throws {
        let path = try #require(ExecutablePath.current)
        #expect(path == Bundle.main.executablePath)
        #expect(path == (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")))
        #expect(path.hasPrefix("/"))
    }

    @Test func aFileIsFoundInTheFolderItsLinksLeadTo() throws {
        let root = NSTemporaryDirectory() + "earshot-executable-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/real/bin", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/links", withIntermediateDirectories: true)
        _ = manager.createFile(atPath: root + "/real/bin/tool", contents: Data())
        try manager.createSymbolicLink(atPath: root + "/links/tool", withDestinationPath: "../real/bin/tool")
        try manager.createSymbolicLink(atPath: root + "/linked-folder", withDestinationPath: "real")
        let real = try #require(ExecutablePath.resolvedFolder(of: root + "/real/bin/tool"))
        #expect(real.hasSuffix("/real/bin"))
        #expect(ExecutablePath.resolvedFolder(of: root + "/links/tool") == real)
        #expect(ExecutablePath.resolvedFolder(of: root + "/linked-folder/bin/tool") == real)
        #expect(ExecutablePath.resolvedFolder(of: root + "/real/bin/missing") == nil)
        #expect(ExecutablePath.resolvedFolder(of: "/") == "/")
    }
}
