import EarshotCore
import Foundation
import Testing

/// Path arithmetic on text gives what a file `URL` gave for the same paths.
@Suite struct PathTextTests {
    static let paths = [
        "/a/b.wav", "/a/b", "/a/b/", "/a.d/b", "/a/.hidden", "/a/b.tar.gz", "/b.wav", "/", "//a//b.wav",
        "/a/b.", "/a/x.earshot",
    ]

    @Test func namesAndStemsAreTheURLsOnes() {
        for path in Self.paths {
            let url = URL(fileURLWithPath: path)
            #expect(PathText.lastComponent(path) == url.lastPathComponent, "\(path)")
            if path != "/" {
                #expect(PathText.stem(path) == url.deletingPathExtension().lastPathComponent, "\(path)")
            }
        }
        #expect(PathText.lastComponent("b.wav") == "b.wav")
        #expect(PathText.lastComponent("a/b//") == "b")
        #expect(PathText.lastComponent("///") == "/")
        #expect(PathText.lastComponent("") == "")
        #expect(PathText.stem("Scripts/x/before-search.earshot") == "before-search")
        #expect(PathText.stem(".hidden") == ".hidden")
    }

    @Test func anExtensionIsReplacedOrAppended() {
        #expect(PathText.replacingExtension(of: "/a/out.wav", with: "vtt") == "/a/out.vtt")
        #expect(PathText.replacingExtension(of: "out.WAV", with: "jsonl") == "out.jsonl")
        #expect(PathText.replacingExtension(of: "dir.d/out", with: "vtt") == "dir.d/out.vtt")
        #expect(PathText.replacingExtension(of: "a/.hidden", with: "vtt") == "a/.hidden.vtt")
        #expect(PathText.replacingExtension(of: "a/out.", with: "vtt") == "a/out..vtt")
        #expect(PathText.replacingExtension(of: "a/b.tar.gz", with: "vtt") == "a/b.tar.vtt")
    }

    @Test func aFolderIsTheURLsForAbsolutePathsAndAsWrittenForRelativeOnes() {
        for path in Self.paths where path != "/" {
            #expect(PathText.folder(of: path) == URL(fileURLWithPath: path).deletingLastPathComponent().path, "\(path)")
        }
        #expect(PathText.folder(of: "/") == "/")
        #expect(PathText.folder(of: "nowhere/x.wav") == "nowhere")
        #expect(PathText.folder(of: "a/b/") == "a")
        #expect(PathText.folder(of: "x.wav") == ".")
    }

    @Test func standardizingTakesDotsAsWritten() {
        for path in ["/a/./b/../c", "/a/b/../../..", "/a//b/./", "/./a", "/a/b/c/../../d"] {
            #expect(
                PathText.standardized(path, in: "/elsewhere") == URL(fileURLWithPath: path).standardizedFileURL.path,
                "\(path)")
        }
        #expect(PathText.standardized("b/../c", in: "/work") == "/work/c")
        #expect(PathText.standardized("../..", in: "/work") == "/")
        #expect(PathText.standardized(".", in: "/work/") == "/work")
    }
}
