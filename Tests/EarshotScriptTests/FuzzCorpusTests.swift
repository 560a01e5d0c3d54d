import EarshotCore
import EarshotTestSupport
import Foundation
import Testing

@testable import EarshotScript

/// The saved fuzz corpus (Tests/FuzzCorpus): inputs that once crashed or that the fuzzer found
/// interesting. Each must parse, run and be checked — or be rejected with located errors — without
/// crashing. tools/fuzz/run.sh explains how files get here.
@Suite struct FuzzCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzCorpus").path

    static func files(_ target: String) -> [String] {
        let path = folder + "/" + target
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
    }

    @Test func theCorpusHasScriptsAndVoiceFiles() {
        #expect(Self.files("script").count >= 10)
        #expect(Self.files("voice").count >= 3)
    }

    @Test("every saved script runs or is rejected with located errors", arguments: files("script"))
    func savedScript(path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        do {
            _ = try FixedSynthesizer.check(bytes, path: path)
        } catch let error as ScriptDiagnostics {
            #expect(!error.diagnostics.isEmpty)
            for diagnostic in error.diagnostics {
                #expect(diagnostic.location.line >= 1 && diagnostic.location.column >= 1, "\(diagnostic)")
                #expect(diagnostic.description.hasPrefix("\(path):\(diagnostic.location.line):"))
            }
        }
    }

    @Test("every saved voice file parses or is rejected with a located error", arguments: files("voice"))
    func savedVoiceFile(path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        do {
            _ = try VoiceFile.parse(bytes: bytes, name: "fuzz", path: path)
        } catch {
            #expect(error.line >= 1 && error.column >= 1, "\(error)")
        }
    }
}
