import Foundation
import Testing

@testable import EarshotSystem

/// The library's version is taken from the stamp beside the phrase cache only while nothing that decides which
/// library is opened, or what it is, has changed.
@Suite("engine stamp")
struct EngineStampTests {
    /// A scratch phrase folder.
    typealias Folder = ScratchFolder

    /// A copy of the real espeak-ng library in `folder`, and the environment that makes it the one opened.
    func copiedLibrary(in folder: Folder) throws -> (path: String, environment: [String: String]) {
        try EspeakLibrary.open()
        let path = folder.path + "/libespeak-ng.so.1"
        try Data(contentsOf: URL(fileURLWithPath: EspeakLibrary.name())).write(to: URL(fileURLWithPath: path))
        return (path, ["EARSHOT_ESPEAK_LIBRARY": path])
    }

    /// A copied library, its stamp lines, and (with `remembering`) a stamp of a version no library has, so only
    /// the stamp can be the source of that version.
    func stamped(in folder: Folder, remembering: Bool = true) throws -> (
        library: String, environment: [String: String], identity: String
    ) {
        let (library, environment) = try copiedLibrary(in: folder)
        let identity = try #require(EngineStamp.identity(library: library, environment: environment))
        if remembering {
            EngineStamp.remember("9.99-stamped", identity: identity, in: folder.path, environment: environment)
        }
        return (library, environment, identity)
    }

    @Test func aStampIsBelievedWhileItsLibraryIsTheSameFile() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (_, environment, _) = try stamped(in: folder)
        #expect(EngineStamp.rememberedVersion(in: folder.path, environment: environment) == "9.99-stamped")
        #expect(EngineStamp.version(rememberedIn: folder.path, environment: environment) == "9.99-stamped")
    }

    @Test func aReplacedLibraryFileIsNotBelieved() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (library, environment, _) = try stamped(in: folder)
        // What a package upgrade does: a new file renamed over the old one (same bytes here).
        let bytes = try Data(contentsOf: URL(fileURLWithPath: library))
        try bytes.write(to: URL(fileURLWithPath: library + ".new"))
        #expect(rename(library + ".new", library) == 0)
        #expect(EngineStamp.rememberedVersion(in: folder.path, environment: environment) == nil)
        // The version is then read from the library itself and remembered in place of the stale one.
        let real = DeferredSynthesizer.libraryVersion()
        #expect(!real.isEmpty)
        #expect(EngineStamp.version(rememberedIn: folder.path, environment: environment) == real)
        #expect(EngineStamp.rememberedVersion(in: folder.path, environment: environment) == real)
    }

    @Test func anotherLoaderEnvironmentHasItsOwnStamp() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (_, environment, _) = try stamped(in: folder)
        var other = environment
        other["LD_LIBRARY_PATH"] = folder.path
        #expect(EngineStamp.rememberedVersion(in: folder.path, environment: environment) == "9.99-stamped")
        #expect(EngineStamp.rememberedVersion(in: folder.path, environment: other) == nil)
        #expect(
            EngineStamp.stampPath(in: folder.path, environment: other)
                != EngineStamp.stampPath(in: folder.path, environment: environment))
    }

    @Test func aStampThatIsNotWholeIsNotBelieved() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (_, environment, identity) = try stamped(in: folder, remembering: false)
        let path = EngineStamp.stampPath(in: folder.path, environment: environment)
        let whole = identity + "\nversion 9.99-stamped\n"
        for broken in [
            String(whole.dropLast()), identity + "\nversion \n", "", "version 9.99\n",
            whole.replacingOccurrences(of: "LD_PRELOAD=", with: "LD_PRELOAD=/x.so"),
        ] {
            try Data(broken.utf8).write(to: URL(fileURLWithPath: path))
            #expect(EngineStamp.rememberedVersion(in: folder.path, environment: environment) == nil, "\(broken)")
        }
        try Data(whole.utf8).write(to: URL(fileURLWithPath: path))
        #expect(EngineStamp.rememberedVersion(in: folder.path, environment: environment) == "9.99-stamped")
    }

    @Test func clearingTheCacheRemovesStamps() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (library, environment, _) = try stamped(in: folder)
        let name = (EngineStamp.stampPath(in: folder.path, environment: environment) as NSString).lastPathComponent
        #expect(EngineStamp.isStampName(name))
        #expect(!EngineStamp.isStampName("engine-XYZ.stamp"))
        #expect(!EngineStamp.isStampName("libespeak-ng.so.1"))
        let removed = PhraseStore(folder: folder.path, limit: 1 << 20).clear()
        #expect(removed.files == 0, "a stamp is not counted as a phrase")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/" + name))
        #expect(FileManager.default.fileExists(atPath: library), "files the cache did not write stay")
        #expect(EngineStamp.rememberedVersion(in: folder.path, environment: environment) == nil)
    }
}
