import Foundation
import Testing

@testable import EarshotSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The private espeak-ng data folder: fresh for each process, private and ours, never found by name.
@Suite struct EspeakDataFolderTests {
    static let shippedVariant = SpeechFixtures.voicesDirectory + "/variants/earshot-narrator"

    private func status(of path: String) throws -> stat {
        var result = stat()
        try #require(lstat(path, &result) == 0, "lstat \(path)")
        return result
    }

    private func scratchFolder() throws -> String {
        let path = NSTemporaryDirectory() + "earshot-folder-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aFolderPlantedAtTheOldPredictableNameIsNotUsed() throws {
        let variants = EspeakDataFolder.customVariantFiles(in: SpeechFixtures.voicesDirectory)
        let system = try #require(EspeakDataFolder.systemDataPath())
        let fingerprint = EspeakDataFolder.fingerprint(of: variants, systemPath: system)
        let planted = NSTemporaryDirectory() + "/earshot-espeak-data-\(getuid())-\(fingerprint)"
        let plantedVariant = planted + "/voices/!v/earshot-narrator"
        let existed = FileManager.default.fileExists(atPath: planted)
        if !existed {
            try FileManager.default.createDirectory(atPath: planted + "/voices/!v", withIntermediateDirectories: true)
            try Data("name planted\npitch 400 400\n".utf8).write(to: URL(fileURLWithPath: plantedVariant))
        }
        defer { if !existed { try? FileManager.default.removeItem(atPath: planted) } }

        let folder = try EspeakDataFolder.prepare(voicesDirectory: SpeechFixtures.voicesDirectory)
        defer { EspeakDataFolder.removeFolder(folder.path) }
        #expect(URL(fileURLWithPath: folder.path).standardized != URL(fileURLWithPath: planted).standardized)
        #expect(try SpeechFixtures.synthesizer().dataPath != planted)
        let used = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/voices/!v/earshot-narrator"))
        #expect(used == (try Data(contentsOf: URL(fileURLWithPath: Self.shippedVariant))))
    }

    @Test func eachPreparationMakesAFreshFolderThatIsPrivateAndOurs() throws {
        let first = try EspeakDataFolder.prepare(voicesDirectory: SpeechFixtures.voicesDirectory)
        let second = try EspeakDataFolder.prepare(voicesDirectory: SpeechFixtures.voicesDirectory)
        defer {
            EspeakDataFolder.removeFolder(first.path)
            EspeakDataFolder.removeFolder(second.path)
        }
        #expect(first.path != second.path)
        #expect(first.variantsFingerprint == second.variantsFingerprint)
        for path in [first.path, second.path, try SpeechFixtures.synthesizer().dataPath] {
            let info = try status(of: path)
            #expect(info.st_mode & S_IFMT == S_IFDIR)
            #expect(info.st_mode & 0o777 == 0o700, "mode \(String(info.st_mode & 0o777, radix: 8)) of \(path)")
            #expect(info.st_uid == geteuid())
            #expect(EspeakDataFolder.privacyProblem(at: path) == nil)
        }
    }

    @Test func aFolderOthersCanReadIsNotPrivate() throws {
        let path = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(chmod(path, 0o755) == 0)
        #expect(EspeakDataFolder.privacyProblem(at: path)?.contains("mode is 755") == true)
        #expect(chmod(path, 0o700) == 0)
        #expect(EspeakDataFolder.privacyProblem(at: path) == nil)
    }

    @Test func aFolderOfAnotherUserIsNotOurs() throws {
        let path = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(chmod(path, 0o700) == 0)
        let someoneElse = geteuid() &+ 1
        #expect(EspeakDataFolder.privacyProblem(at: path, owner: someoneElse)?.contains("belongs to user") == true)
        #expect(EspeakDataFolder.privacyProblem(at: path, owner: geteuid()) == nil)
    }

    @Test func aLinkToAPrivateFolderOrAFileIsNotAFolder() throws {
        let path = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(chmod(path, 0o700) == 0)
        try FileManager.default.createSymbolicLink(atPath: path + "-link", withDestinationPath: path)
        defer { try? FileManager.default.removeItem(atPath: path + "-link") }
        #expect(EspeakDataFolder.privacyProblem(at: path + "-link") == "it is not a directory")
        try Data().write(to: URL(fileURLWithPath: path + "/file"))
        #expect(EspeakDataFolder.privacyProblem(at: path + "/file") == "it is not a directory")
        #expect(EspeakDataFolder.privacyProblem(at: path + "/missing")?.hasPrefix("cannot inspect it") == true)
    }

    @Test func removingAFolderRemovesItsLinksButNotWhatTheyPointAt() throws {
        let target = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: target) }
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target + "/kept"))
        let folder = try EspeakDataFolder.makePrivateFolder()
        try FileManager.default.createSymbolicLink(atPath: folder + "/data", withDestinationPath: target)
        EspeakDataFolder.removeFolder(folder)
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(FileManager.default.fileExists(atPath: target + "/kept"))
    }
}

/// Where the private data folder is made: a memory-backed folder when there is one.
@Suite struct PrivateFolderBaseTests {
    @Test(arguments: [
        (["XDG_RUNTIME_DIR": "/run/user/1000", "TMPDIR": "/var/tmp"], ["/run/user/1000", "/var/tmp"], "/var/tmp/"),
        (["TMPDIR": "/missing"], ["/dev/shm"], "/missing/"),
        (["XDG_RUNTIME_DIR": "/run/user/1000"], ["/run/user/1000", "/dev/shm"], "/run/user/1000/"),
        (["XDG_RUNTIME_DIR": "/run/user/1000"], ["/dev/shm"], "/dev/shm/"),
        (["XDG_RUNTIME_DIR": "relative"], ["relative", "/dev/shm"], "/dev/shm/"),
        ([:], ["/dev/shm", "/tmp"], "/dev/shm/"),
        ([:], ["/tmp"], "/tmp/"),
        ([:], [], "/tmp/"),
    ])
    func theBaseIsTheTemporaryFolderAskedForElseTheFirstMemoryBackedOne(
        environment: [String: String], directories: [String], base: String
    ) {
        #expect(EspeakDataFolder.baseFolder(environment: environment, isDirectory: directories.contains) == base)
    }

    @Test func aPreparedFolderIsMadeInTheBaseFolder() throws {
        let folder = try EspeakDataFolder.prepare(voicesDirectory: SpeechFixtures.voicesDirectory)
        defer { EspeakDataFolder.removeFolder(folder.path) }
        #expect(folder.path.hasPrefix(EspeakDataFolder.baseFolder() + EspeakDataFolder.folderPrefix))
    }
}
