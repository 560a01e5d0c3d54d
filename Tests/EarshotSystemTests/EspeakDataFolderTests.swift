import EarshotCore
import Foundation
import Testing

@testable import EarshotSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The private espeak-ng data folder: fresh, private and ours; a folder planted at a name is never read (the kept
/// folder, found by name, has its own checks: `KeptDataFolderTests`).
@Suite struct EspeakDataFolderTests {
    static let shippedVariant = SpeechFixtures.voicesDirectory + "/variants/earshot-narrator"

    private func status(of path: String) throws -> stat {
        var result = stat()
        try #require(lstat(path, &result) == 0, "lstat \(path)")
        return result
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

    /// Phrases are keyed by this fingerprint: it changes with the custom variants and with the system data folder,
    /// whose times a package upgrade changes (here set by hand, as the clock's steps are coarser than a test).
    @Test func theFingerprintFollowsTheVariantsAndTheDataFolder() throws {
        let first = try scratchFolder()
        let second = try scratchFolder()
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        let variants = [(name: "mine", contents: Data("name mine\n".utf8))]
        let before = EspeakDataFolder.fingerprint(of: variants, systemPath: first)
        #expect(EspeakDataFolder.fingerprint(of: variants, systemPath: first) == before)
        #expect(!before.isEmpty)
        #expect(EspeakDataFolder.fingerprint(of: [], systemPath: first) != before)
        #expect(
            EspeakDataFolder.fingerprint(of: [(name: "mine", contents: Data("name x\n".utf8))], systemPath: first)
                != before)
        #expect(EspeakDataFolder.fingerprint(of: variants, systemPath: second) != before)
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, first, &times, 0) == 0)
        #expect(EspeakDataFolder.fingerprint(of: variants, systemPath: first) != before, "an upgraded data folder")
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

    @Test func aPreparedFolderLinksEverySystemEntryAndHoldsTheCustomVariantsItself() throws {
        let system = try #require(EspeakDataFolder.systemDataPath())
        let folder = try EspeakDataFolder.prepare(voicesDirectory: SpeechFixtures.voicesDirectory)
        defer { EspeakDataFolder.removeFolder(folder.path) }
        let custom = Set(folder.customVariants)
        #expect(custom.contains("earshot-narrator"))
        let files = FileManager.default
        for (inner, excluded) in [("", Set(["voices"])), ("/voices", Set(["!v"])), ("/voices/!v", custom)] {
            let expected = Set(try files.contentsOfDirectory(atPath: system + inner)).subtracting(excluded)
            let made = Set(try files.contentsOfDirectory(atPath: folder.path + inner))
            #expect(made == expected.union(inner == "" ? ["voices"] : inner == "/voices" ? ["!v"] : custom))
            for name in expected {
                let link = try files.destinationOfSymbolicLink(atPath: folder.path + inner + "/" + name)
                #expect(link == system + inner + "/" + name)
            }
        }
        let variant = folder.path + "/voices/!v/earshot-narrator"
        #expect((try? files.destinationOfSymbolicLink(atPath: variant)) == nil, "a file of its own, not a link")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: variant))
                == Data(contentsOf: URL(fileURLWithPath: Self.shippedVariant)))
    }

    @Test func removingATreeRemovesNestedFoldersButLeavesALinkGivenAsThePathAlone() throws {
        let target = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: target) }
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target + "/kept"))
        let tree = try scratchFolder()
        try FileManager.default.createDirectory(atPath: tree + "/a/b/c", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: tree + "/a/b/c/file"))
        try FileManager.default.createSymbolicLink(atPath: tree + "/a/link", withDestinationPath: target)
        try FileManager.default.createSymbolicLink(atPath: tree + "-link", withDestinationPath: target)
        defer { try? FileManager.default.removeItem(atPath: tree + "-link") }

        EspeakDataFolder.removeTree(tree + "-link")
        #expect(FileManager.default.fileExists(atPath: target + "/kept"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: tree + "-link")) == target)
        EspeakDataFolder.removeTree(tree)
        #expect(!FileManager.default.fileExists(atPath: tree))
        #expect(FileManager.default.fileExists(atPath: target + "/kept"))
    }

    @Test func aNewFileIsNeverWrittenThroughSomethingAlreadyThere() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: folder + "/target"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/planted", withDestinationPath: folder + "/target")
        #expect(throws: EspeakDataFolder.TreeError.self) {
            try EspeakDataFolder.writeNewFile(folder + "/planted", Data("ours".utf8))
        }
        #expect(try String(contentsOfFile: folder + "/target", encoding: .utf8) == "theirs")
        try EspeakDataFolder.writeNewFile(folder + "/fresh", Data("ours".utf8))
        #expect(try String(contentsOfFile: folder + "/fresh", encoding: .utf8) == "ours")
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

/// The standard voice's file linked under its name in the synthesizer's private data folder, so espeak-ng selects it
/// without listing every voice.
@Suite struct LinkedVoiceFileTests {
    @Test func theSynthesizersFolderLinksTheStandardVoicesFileUnderItsName() throws {
        let system = try #require(EspeakDataFolder.systemDataPath())
        let folder = try EspeakDataFolder.prepare(
            voicesDirectory: SpeechFixtures.voicesDirectory, linkingVoice: "en-us")
        defer { EspeakDataFolder.removeFolder(folder.path) }
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: folder.path + "/voices/en-us")
        #expect(target.hasPrefix(system + "/lang/"))
        #expect(URL(fileURLWithPath: target).lastPathComponent.lowercased() == "en-us")
        #expect(folder.hasLinkedVoice("en-us"))
        // The raw reference's folder (no voice asked for) stays as espeak-ng's own.
        let plain = try EspeakDataFolder.prepare(voicesDirectory: SpeechFixtures.voicesDirectory)
        defer { EspeakDataFolder.removeFolder(plain.path) }
        #expect(!FileManager.default.fileExists(atPath: plain.path + "/voices/en-us"))
        #expect(!plain.hasLinkedVoice("en-us"))
    }

    /// Another voice's file is linked when a profile first asks for the voice, so that its worker selects it without
    /// espeak-ng's voice list; a name no file answers to is left to the list, which refuses it as before.
    @Test func anotherVoicesFileIsLinkedWhenAProfileFirstAsksForIt() throws {
        let system = try #require(EspeakDataFolder.systemDataPath())
        let synthesizer = try SpeechFixtures.synthesizer()
        try synthesizer.validate(VoiceProfile(name: "received", espeakVoice: "en-gb-x-rp"))
        let target = try FileManager.default.destinationOfSymbolicLink(
            atPath: synthesizer.dataPath + "/voices/en-gb-x-rp")
        #expect(target.hasPrefix(system + "/lang/"))
        #expect(URL(fileURLWithPath: target).lastPathComponent.lowercased() == "en-gb-x-rp")
        #expect(throws: EspeakError.self) {
            try synthesizer.validate(VoiceProfile(name: "none", espeakVoice: "zz-none"))
        }
        #expect(!FileManager.default.fileExists(atPath: synthesizer.dataPath + "/voices/zz-none"))
    }

    /// A made-up system data folder holding `files` under `lang/`, and an empty private folder beside it.
    private func folders(langFiles files: [String]) throws -> (system: String, private: String, remove: () -> Void) {
        let root = try scratchFolder()
        for file in files {
            let path = root + "/system/lang/" + file
            try FileManager.default.createDirectory(
                atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try Data("name \(file)\n".utf8).write(to: URL(fileURLWithPath: path))
        }
        try FileManager.default.createDirectory(atPath: root + "/private/voices", withIntermediateDirectories: true)
        return (root + "/system", root + "/private", { try? FileManager.default.removeItem(atPath: root) })
    }

    @Test func theOneFileNamedLikeTheVoiceInAnyCaseIsLinked() throws {
        let made = try folders(langFiles: ["gmw/en-US", "gmw/en-GB-x-rp", "roa/fr", "en"])
        defer { made.remove() }
        try EspeakDataFolder.linkVoiceFile("en-us", in: made.private, system: made.system)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: made.private + "/voices/en-us")
                == made.system + "/lang/gmw/en-US")
    }

    @Test(arguments: [
        ["gmw/en-US", "other/EN-us"],  // two candidates: espeak-ng's choice would depend on its list
        ["gmw/en-GB", "roa/fr"],  // none
    ])
    func withoutExactlyOneCandidateNothingIsLinked(files: [String]) throws {
        let made = try folders(langFiles: files)
        defer { made.remove() }
        try EspeakDataFolder.linkVoiceFile("en-us", in: made.private, system: made.system)
        #expect(try FileManager.default.contentsOfDirectory(atPath: made.private + "/voices").isEmpty)
    }

    @Test func aNameThatIsNoVoiceNameOrAFileAlreadyThereIsLeftAlone() throws {
        let made = try folders(langFiles: ["gmw/en-US", "../escape"])
        defer { made.remove() }
        try EspeakDataFolder.linkVoiceFile("../escape", in: made.private, system: made.system)
        #expect(try FileManager.default.contentsOfDirectory(atPath: made.private + "/voices").isEmpty)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: made.private + "/voices/en-us"))
        try EspeakDataFolder.linkVoiceFile("en-us", in: made.private, system: made.system)
        #expect(try String(contentsOfFile: made.private + "/voices/en-us", encoding: .utf8) == "mine")
    }
}

/// A new empty folder for one test.
private func scratchFolder() throws -> String {
    let path = NSTemporaryDirectory() + "earshot-folder-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
