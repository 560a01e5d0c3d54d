import Foundation
import Testing

@testable import EarshotSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The synthesizer's private data folder, kept between processes: used again only when it is ours, private, sealed
/// with the same key and whole. Each test has a variant of its own, so its folder's key is its own (the folder the
/// test process's synthesizer uses is never touched).
@Suite struct KeptDataFolderTests {
    /// A Voices folder with one custom variant no other test has.
    struct Voices {
        let scratch: ScratchFolder
        let variant: (name: String, contents: Data)
        var path: String { scratch.path }

        init() throws {
            scratch = try ScratchFolder()
            variant = ("kept", Data("name kept\n# \(UUID().uuidString)\npitch 40 90\n".utf8))
            try FileManager.default.createDirectory(atPath: path + "/variants", withIntermediateDirectories: true)
            try variant.contents.write(to: URL(fileURLWithPath: path + "/variants/" + variant.name))
        }

        func prepare() throws -> EspeakDataFolder {
            try EspeakDataFolder.prepare(voicesDirectory: path, linkingVoice: "en-us", keeping: true)
        }

        /// Removes the scratch folder and the kept folder.
        func remove(_ folders: EspeakDataFolder...) {
            for folder in folders { EspeakDataFolder.removeTree(folder.path) }
            scratch.remove()
        }
    }

    private func variantBytes(_ folder: EspeakDataFolder, _ name: String) -> Data? {
        try? Data(contentsOf: URL(fileURLWithPath: folder.path + "/voices/!v/" + name))
    }

    @Test func aKeptFolderIsUsedAgainByTheNextPreparation() throws {
        let voices = try Voices()
        let first = try voices.prepare()
        defer { voices.remove(first) }
        #expect(URL(fileURLWithPath: first.path).lastPathComponent.hasPrefix("earshot-espeak-data-\(geteuid())-"))
        #expect(FileManager.default.fileExists(atPath: first.path + "/" + EspeakDataFolder.sealName))
        let marker = first.path + "/voices/a-link-made-later"
        #expect(symlink("/dev/null", marker) == 0)
        let second = try voices.prepare()
        #expect(second.path == first.path)
        // Used again, not made again: what was added since is still there.
        #expect(FileManager.default.destinationOfSymbolicLinkOrNil(atPath: marker) == "/dev/null")
        #expect(variantBytes(second, voices.variant.name) == voices.variant.contents)
    }

    /// An entry gone (a cleaner), a variant changed or the seal missing: the folder is made again in its place.
    @Test(arguments: ["phontab", "voices/!v/" + "kept", EspeakDataFolder.sealName])
    func aKeptFolderThatIsNotWholeIsMadeAgain(damaged entry: String) throws {
        let voices = try Voices()
        let first = try voices.prepare()
        defer { voices.remove(first) }
        let damaged = first.path + "/" + entry
        try FileManager.default.removeItem(atPath: damaged)
        if entry.hasPrefix("voices/!v/") { try Data("name planted\n".utf8).write(to: URL(fileURLWithPath: damaged)) }
        let second = try voices.prepare()
        #expect(second.path == first.path)
        #expect(FileManager.default.fileExists(atPath: second.path + "/phontab"))
        #expect(FileManager.default.fileExists(atPath: second.path + "/" + EspeakDataFolder.sealName))
        #expect(variantBytes(second, voices.variant.name) == voices.variant.contents)
    }

    /// A folder at the kept name that is not private (here: readable by others) is neither used nor removed: the
    /// process makes a folder of its own, removed at exit.
    @Test func aFolderAtTheKeptNameThatIsNotPrivateIsLeftAlone() throws {
        let voices = try Voices()
        let first = try voices.prepare()
        defer { voices.remove(first) }
        #expect(chmod(first.path, 0o755) == 0)
        let second = try voices.prepare()
        defer { EspeakDataFolder.removeFolder(second.path) }
        #expect(second.path != first.path)
        #expect(URL(fileURLWithPath: second.path).lastPathComponent.count == EspeakDataFolder.folderPrefix.count + 6)
        #expect(FileManager.default.fileExists(atPath: first.path + "/" + EspeakDataFolder.sealName))
        #expect(variantBytes(second, voices.variant.name) == voices.variant.contents)
    }

    /// Runs making the folder at the same time: one folder is kept, every other run gets a whole folder of its own
    /// (removed at exit), and none fails.
    @Test func preparationsAtTheSameTimeKeepOneFolderAndEachGetAWholeOne() throws {
        let voices = try Voices()
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            results.add(Result { try voices.prepare() })
        }
        let folders = try results.all.map { try $0.get() }
        let kept = folders.filter {
            URL(fileURLWithPath: $0.path).lastPathComponent.hasPrefix("earshot-espeak-data-\(geteuid())-")
        }
        defer {
            for folder in folders { EspeakDataFolder.removeFolder(folder.path) }
            voices.remove(kept.first ?? folders[0])
        }
        #expect(folders.count == 8)
        #expect(Set(kept.map(\.path)).count == 1, "kept: \(kept.map(\.path))")
        for folder in folders {
            #expect(FileManager.default.fileExists(atPath: folder.path + "/phontab"))
            #expect(variantBytes(folder, voices.variant.name) == voices.variant.contents)
        }
        // The next run takes the kept one.
        #expect(try voices.prepare().path == kept.first?.path)
    }

    @Test func keptFoldersUnusedForAWeekGoWhenAnotherIsKept() throws {
        let base = EspeakDataFolder.baseFolder()
        let stale = base + EspeakDataFolder.folderPrefix + "\(geteuid())-stale\(UUID().uuidString.prefix(8))"
        let recent = base + EspeakDataFolder.folderPrefix + "\(geteuid())-recent\(UUID().uuidString.prefix(8))"
        for folder in [stale, recent] {
            try EspeakDataFolder.makeFolder(folder)
            try EspeakDataFolder.writeNewFile(folder + "/" + EspeakDataFolder.sealName, Data("x\n".utf8))
        }
        defer {
            EspeakDataFolder.removeTree(stale)
            EspeakDataFolder.removeTree(recent)
        }
        let eightDaysAgo = timespec(tv_sec: time(nil) - 8 * 24 * 3600, tv_nsec: 0)
        var times = [eightDaysAgo, eightDaysAgo]
        #expect(utimensat(AT_FDCWD, stale + "/" + EspeakDataFolder.sealName, &times, 0) == 0)
        let voices = try Voices()
        let kept = try voices.prepare()
        defer { voices.remove(kept) }
        #expect(!FileManager.default.fileExists(atPath: stale), "a kept folder unused for eight days stayed")
        #expect(FileManager.default.fileExists(atPath: recent))
    }
}

extension FileManager {
    fileprivate func destinationOfSymbolicLinkOrNil(atPath path: String) -> String? {
        try? destinationOfSymbolicLink(atPath: path)
    }
}

/// Results gathered from several threads.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<EspeakDataFolder, any Error>] = []
    func add(_ result: Result<EspeakDataFolder, any Error>) { lock.withLock { results.append(result) } }
    var all: [Result<EspeakDataFolder, any Error>] { lock.withLock { results } }
}
