import EarshotSystem
import Foundation
import Testing

#if os(Linux)  // the stand-in is built, and the loader is traced (LD_DEBUG), on Linux only

    /// espeak-ng's playback library (libpcaudio, which brings in PulseAudio) is replaced by Earshot's stand-in when
    /// one is installed with the executable; the speech is the same, the benchmark's reference keeps the real one,
    /// and a file that cannot stand in is passed over.
    @Suite("playback stand-in")
    struct PlaybackStandInTests {
        /// The stand-in built beside the earshot executable the tests run (tools/playback-stand-in/build.sh).
        static func builtStandIn() throws -> String {
            let binary = try #require(EarshotBinary.path, "the earshot executable is built next to the tests")
            let path =
                URL(fileURLWithPath: binary).deletingLastPathComponent().path + "/" + EspeakLibrary.standInFileName
            try #require(
                FileManager.default.fileExists(atPath: path),
                "tools/playback-stand-in/build.sh builds \(path) (make build and the test stages run it)")
            return path
        }

        /// Runs `binary` with the loader naming every library it maps.
        static func traced(_ binary: String, _ arguments: [String]) throws -> RunResult {
            try EarshotBinary.runProgram(
                binary, arguments, environment: ["EARSHOT_VOICES": voicesFolder, "LD_DEBUG": "files"])
        }

        /// The loader's lines about a library whose file name contains `name`.
        static func loads(_ name: String, in trace: String) -> Bool {
            trace.split(separator: "\n").contains { $0.contains("file=") && $0.contains(name) }
        }

        /// A copy of the earshot executable in its own folder, with `standIn` (bytes) beside it when given.
        static func copiedBinary(in folder: OutputFolder, standIn: Data?) throws -> String {
            let binary = folder.path + "/earshot"
            try FileManager.default.copyItem(atPath: try #require(EarshotBinary.path), toPath: binary)
            if let standIn {
                try standIn.write(to: URL(fileURLWithPath: folder.path + "/" + EspeakLibrary.standInFileName))
            }
            return binary
        }

        @Test func theExecutableSpeaksThroughTheStandInWithoutPulseAudioAndSaysTheSame() throws {
            _ = try Self.builtStandIn()
            let folder = try OutputFolder()
            defer { folder.remove() }
            let withStandIn = try Self.traced(
                try #require(EarshotBinary.path), ["say", "-o", folder.path + "/stand-in.wav", "Results updated"])
            #expect(withStandIn.status == 0, "\(withStandIn.error.suffix(300))")
            #expect(Self.loads(EspeakLibrary.standInFileName, in: withStandIn.error), "the stand-in was not loaded")
            #expect(!Self.loads("libpulse", in: withStandIn.error), "PulseAudio was loaded with the stand-in there")
            #expect(!Self.loads("libX11", in: withStandIn.error), "X11 was loaded with the stand-in there")

            // The same executable without a stand-in beside it loads espeak-ng's own libpcaudio, and says the same.
            let plainFolder = try OutputFolder()
            defer { plainFolder.remove() }
            let plain = try Self.traced(
                try Self.copiedBinary(in: plainFolder, standIn: nil),
                ["say", "-o", folder.path + "/plain.wav", "Results updated"])
            #expect(plain.status == 0, "\(plain.error.suffix(300))")
            #expect(Self.loads("libpulse", in: plain.error), "without a stand-in espeak-ng loads its libpcaudio")
            #expect(!Self.loads(EspeakLibrary.standInFileName, in: plain.error))
            let same =
                try Data(contentsOf: URL(fileURLWithPath: folder.path + "/stand-in.wav"))
                == Data(contentsOf: URL(fileURLWithPath: folder.path + "/plain.wav"))
            #expect(same, "the speech differs with the stand-in")
        }

        @Test func theBenchmarkReferenceLoadsEspeakWithItsRealPlaybackLibrary() throws {
            _ = try Self.builtStandIn()
            let folder = try OutputFolder()
            defer { folder.remove() }
            let binary = try #require(EarshotBinary.path)
            let list = folder.path + "/heard.txt"
            let script = packageRoot + "/Scripts/announcement-spam/after-cart.earshot"
            let listed = try EarshotBinary.runProgram(
                binary, ["bench", script, "--heard-phrases", list], environment: ["EARSHOT_VOICES": voicesFolder])
            #expect(listed.status == 0, "\(listed.error.suffix(300))")
            let raw = try Self.traced(binary, ["bench", "--raw", list])
            #expect(raw.status == 0, "\(raw.error.suffix(300))")
            #expect(Self.loads("libpulse", in: raw.error), "the reference is plain espeak-ng, playback library and all")
            #expect(!Self.loads(EspeakLibrary.standInFileName, in: raw.error))
            // The second reference loads espeak-ng as earshot does.
            let standIn = try Self.traced(binary, ["bench", "--raw", list, "--stand-in"])
            #expect(standIn.status == 0, "\(standIn.error.suffix(300))")
            #expect(!Self.loads("libpulse", in: standIn.error), "--stand-in still loaded the real playback library")
            #expect(Self.loads(EspeakLibrary.standInFileName, in: standIn.error))
        }

        @Test(arguments: ["not a library", "libm"])
        func aFileThatCannotStandInIsPassedOver(kind: String) throws {
            let folder = try OutputFolder()
            defer { folder.remove() }
            // A text file, or a real library without libpcaudio's functions.
            let bytes =
                kind == "libm"
                ? try Data(contentsOf: URL(fileURLWithPath: "/lib/x86_64-linux-gnu/libm.so.6"))
                : Data("this is not a library\n".utf8)
            try Self.speaksWithTheRealPlaybackLibrary(
                try Self.copiedBinary(in: folder, standIn: bytes), in: folder, kind)
        }

        /// `binary` says something, with espeak-ng's own libpcaudio loaded.
        static func speaksWithTheRealPlaybackLibrary(_ binary: String, in folder: OutputFolder, _ label: String) throws
        {
            let result = try Self.traced(binary, ["say", "-o", folder.path + "/hello.wav", "Hello"])
            #expect(result.status == 0, "\(label): \(result.error.suffix(300))")
            #expect(Self.loads("libpulse", in: result.error), "\(label): espeak-ng did not get its real libpcaudio")
            #expect(FileManager.default.fileExists(atPath: folder.path + "/hello.wav"))
        }

        /// A library built as libpcaudio.so.0 that lacks a function espeak-ng calls would leave espeak-ng unable to
        /// load: it is passed over, and espeak-ng gets the real one.
        @Test func aStandInMissingAFunctionIsPassedOver() throws {
            let folder = try OutputFolder()
            defer { folder.remove() }
            let source = folder.path + "/partial.c"
            let partial = """
                struct audio_object *create_audio_device_object(const char *device, const char *name, const char *about) {
                    (void)device;
                    (void)name;
                    (void)about;
                    return 0;
                }

                """
            try partial.write(toFile: source, atomically: true, encoding: .utf8)
            let built = folder.path + "/partial"
            let build = Process()
            build.executableURL = URL(fileURLWithPath: packageRoot + "/tools/playback-stand-in/build.sh")
            build.arguments = [built, source]
            try build.run()
            build.waitUntilExit()
            try #require(build.terminationStatus == 0, "the partial stand-in could not be built")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: built + "/" + EspeakLibrary.standInFileName))
            try Self.speaksWithTheRealPlaybackLibrary(
                try Self.copiedBinary(in: folder, standIn: bytes), in: folder, "a partial stand-in")
        }

        @Test func theStandInIsFoundBesideTheExecutableOrInItsPrefixLibFolder() throws {
            let folder = try OutputFolder()
            defer { folder.remove() }
            let manager = FileManager.default
            // An install: PREFIX/bin/earshot with PREFIX/lib/earshot/libearshot-pcaudio.so.
            try manager.createDirectory(atPath: folder.path + "/bin", withIntermediateDirectories: true)
            try manager.createDirectory(atPath: folder.path + "/lib/earshot", withIntermediateDirectories: true)
            _ = manager.createFile(atPath: folder.path + "/bin/earshot", contents: Data())
            #expect(EspeakLibrary.standInForPlayback(besideExecutable: folder.path + "/bin/earshot") == nil)
            let installed = folder.path + "/lib/earshot/" + EspeakLibrary.standInFileName
            _ = manager.createFile(atPath: installed, contents: Data())
            #expect(EspeakLibrary.standInForPlayback(besideExecutable: folder.path + "/bin/earshot") == installed)
            // A build folder: beside the executable, found first.
            let beside = folder.path + "/bin/" + EspeakLibrary.standInFileName
            _ = manager.createFile(atPath: beside, contents: Data())
            #expect(EspeakLibrary.standInForPlayback(besideExecutable: folder.path + "/bin/earshot") == beside)
            // A link to the executable (a PATH entry) leads to the real one's folder.
            try manager.createDirectory(atPath: folder.path + "/elsewhere", withIntermediateDirectories: true)
            try manager.createSymbolicLink(
                atPath: folder.path + "/elsewhere/earshot", withDestinationPath: "../bin/earshot")
            #expect(EspeakLibrary.standInForPlayback(besideExecutable: folder.path + "/elsewhere/earshot") == beside)
            #expect(EspeakLibrary.standInForPlayback(besideExecutable: nil) == nil)
        }
    }

#endif
