import Foundation
import Testing

@testable import EarshotAudio

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Atomic file")
struct AtomicFileTests {
    @Test func writesTextAndReplacesAnExistingFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("report.jsonl")
        try AtomicFile.write("first\n", to: path)
        try AtomicFile.write(Data("second\n".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second\n")
        #expect(folder.contents == ["report.jsonl"])
    }

    @Test func pathsSplitIntoTheFolderThatHoldsTheTemporaryAndTheName() {
        #expect(AtomicFile.Temporary.split("out.vtt") == (".", "out.vtt"))
        #expect(AtomicFile.Temporary.split("/top.html") == ("/", "top.html"))
        #expect(AtomicFile.Temporary.split("a/b/c.wav") == ("a/b", "c.wav"))
    }

    @Test(arguments: [ENOSPC, EIO, EDQUOT])
    func aFailingWriteLeavesNeitherTheFileNorATemporary(code: Int32) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("out.html")
        let io = AtomicFile.IO(
            write: { _, _ in -Int(code) }, fsync: AtomicFile.IO.posix.fsync,
            rename: AtomicFile.IO.posix.rename)
        let error = #expect(throws: OutputFileError.self) {
            try AtomicFile.write(Data("<html>".utf8), to: path, io: io)
        }
        #expect(error?.description == "cannot write \(path): \(String(cString: strerror(code)))")
        #expect(folder.contents.isEmpty)
    }

    @Test func aMissingFolderIsReportedWithTheOSReason() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("no/such/folder/out.txt")
        let error = #expect(throws: OutputFileError.self) { try AtomicFile.write("x", to: path) }
        #expect(error?.description == "cannot create \(path): No such file or directory")
    }

    @Test func aFolderInsideProcCannotHoldOutputs() throws {
        let path = "/proc/earshot-out.txt"
        let error = #expect(throws: OutputFileError.self) { try AtomicFile.write("x", to: path) }
        #expect(error?.operation == .create)
        #expect(FileManager.default.fileExists(atPath: path) == false)
    }
}
