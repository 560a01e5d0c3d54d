import EarshotCore
@testable import EarshotSystem
import Foundation
import Testing

/// Loading the Voices folder, finding profiles by name, and finding the folder itself.
@Suite struct VoiceLibraryTests {
    @Test func theShippedLibraryHasTheThreeProfiles() throws {
        let library = try VoiceLibrary(directory: SpeechFixtures.voicesDirectory)
        #expect(library.names == ["default", "expert", "narrator"])
        #expect(try library.profile(named: "default").rate == 185)
        #expect(try library.profile(named: "default").espeakVoice == "en-us")
        #expect(try library.profile(named: "expert").rate == 425)
        let narrator = try library.profile(named: "narrator")
        #expect(narrator.variant == "earshot-narrator" && narrator.rate == 165)
    }

    @Test(arguments: [("narator", "narrator"), ("Expert", "expert"), ("def", "default")])
    func anUnknownNameSuggestsTheNearestOne(name: String, suggestion: String) throws {
        let library = try VoiceLibrary(directory: SpeechFixtures.voicesDirectory)
        do {
            _ = try library.profile(named: name)
            Issue.record("found a profile named \(name)")
        } catch {
            #expect(error.description.contains("did you mean '\(suggestion)'?"))
            #expect(error.description.contains("default, expert, narrator"))
        }
    }

    @Test func aMalformedFileFailsTheLoadWithItsLocation() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "espeak en-us\nrate 9000\n".write(toFile: folder + "/fast.voice", atomically: true, encoding: .utf8)
        do {
            _ = try VoiceLibrary(directory: folder)
            Issue.record("loaded a malformed file")
        } catch {
            #expect(error.description.contains("fast.voice:2:6: error: rate 9000"))
        }
    }

    @Test func locatingPrefersExplicitThenEnvironmentThenWalkingUp() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/Voices", withIntermediateDirectories: true)
        try "espeak en-us\n".write(toFile: root + "/Voices/default.voice", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root + "/a/b/c", withIntermediateDirectories: true)

        let walked = VoiceLibrary.locateDirectory(
            explicit: nil, environment: [:], currentDirectory: root + "/a/b/c", executablePath: nil)
        #expect(
            walked.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
                == URL(fileURLWithPath: root + "/Voices").resolvingSymlinksInPath().path)
        let fromExecutable = VoiceLibrary.locateDirectory(
            explicit: nil, environment: [:], currentDirectory: "/", executablePath: root + "/a/b/earshot")
        #expect(fromExecutable?.hasSuffix("/Voices") == true)
        let fromEnvironment = VoiceLibrary.locateDirectory(
            explicit: nil, environment: ["EARSHOT_VOICES": "/env/voices"], currentDirectory: root + "/a",
            executablePath: nil)
        #expect(fromEnvironment == "/env/voices")
        let explicit = VoiceLibrary.locateDirectory(
            explicit: "/my/voices", environment: ["EARSHOT_VOICES": "/env/voices"], currentDirectory: root,
            executablePath: nil)
        #expect(explicit == "/my/voices")
        #expect(
            VoiceLibrary.locateDirectory(explicit: nil, environment: [:], currentDirectory: "/", executablePath: nil)
                == nil)
    }

    @Test func walkingUpTakesDotsAsWrittenAndStopsAtTheRoot() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for voices in [root + "/Voices", root + "/a/Voices"] {
            try FileManager.default.createDirectory(atPath: voices, withIntermediateDirectories: true)
            try "espeak en-us\n".write(toFile: voices + "/default.voice", atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        // `missing` does not exist: the file system could not go through it, so `..` must be taken as written.
        #expect(VoiceLibrary.walkUp(from: root + "/missing/../a/./b", in: "/") == root + "/a/Voices")
        #expect(VoiceLibrary.walkUp(from: "missing/../a/b", in: root) == root + "/a/Voices")
        #expect(VoiceLibrary.walkUp(from: "b/../..", in: root + "/a") == root + "/Voices")
        #expect(VoiceLibrary.walkUp(from: "/", in: root) == nil)
    }

    private func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-voices-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
